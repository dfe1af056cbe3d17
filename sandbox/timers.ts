/* eslint-disable @n8n/community-nodes/no-restricted-globals -- the sandbox is a dev tool: injected latency needs a timer */
export function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}
