import { sleep } from 'n8n-workflow';

/**
 * One file download under watch: a host silent for the Timeout (before answering or
 * while sending), the polling trigger's deadline, n8n cancelling the execution, or a
 * sibling file failing stops it, and stopping always closes the connection. It aborts
 * the request too: the body n8n returns (`Readable.from` in n8n 2.x) ignores `destroy()`
 * until its next chunk, which a silent host never sends.
 */

export interface DownloadLimits {
	maxBytes: number;
	/** No response, or no bytes, for this long fails the download. */
	timeoutMs: number;
	/** Loopback and private network addresses may be fetched (never link-local or metadata ones). */
	allowPrivateAddresses: boolean;
	/** Clock time at which a download still running is stopped (the polling trigger's). */
	endAtMs?: number;
}

/** Why a file could not be downloaded, as the text of the item's error. */
export class FileDownloadError extends Error {}

export const NOT_IN_TIME = "not downloaded within the poll's time (n8n's poll budget)";

/** How often, at most, the watch looks at the clock (community nodes have no timers). */
const WATCH_STEP_MS = 500;

/** The parts of a Node Readable the watch uses. */
export interface BodyStream {
	pause(): unknown;
	resume(): unknown;
	destroy(error?: Error): unknown;
	on(event: 'data', listener: (chunk: { length: number }) => void): unknown;
	on(event: 'end' | 'close', listener: () => void): unknown;
	on(event: 'error', listener: (error: Error) => void): unknown;
	on(event: 'newListener', listener: (event: string) => void): unknown;
}

export class WatchedDownload {
	private stopped?: FileDownloadError;

	private request?: AbortController;

	private body?: BodyStream;

	private lastActivityAt = Date.now();

	private bytes = 0;

	private ended = false;

	private failed = false;

	private over = false;

	private readonly signals: Array<[AbortSignal, () => void]> = [];

	constructor(
		private readonly limits: DownloadLimits,
		stoppers: { cancel?: AbortSignal; stop?: AbortSignal },
	) {
		const reasons: Array<[AbortSignal | undefined, string]> = [
			[stoppers.cancel, 'the execution was cancelled'],
			[stoppers.stop, 'stopped: another file of the item failed'],
		];
		for (const [signal, reason] of reasons) {
			if (!signal) continue;
			const onAbort = () => this.stop(new FileDownloadError(reason));
			if (signal.aborted) onAbort();
			signal.addEventListener('abort', onAbort);
			this.signals.push([signal, onAbort]);
		}
		void this.watch();
	}

	/** Why it was stopped, if it was. */
	problem(): FileDownloadError | undefined {
		return this.stopped;
	}

	/** Bytes of the body read so far. */
	received(): number {
		return this.bytes;
	}

	/** Whether the body failed (the host closed it, or it was stopped) before its end. */
	broken(): boolean {
		return this.failed && !this.ended;
	}

	/** The abort signal for the next request (one per hop); the Timeout starts again. */
	newRequest(): AbortSignal {
		if (this.stopped) throw this.stopped;
		this.request = new AbortController();
		this.lastActivityAt = Date.now();
		return this.request.signal;
	}

	/** A response not read (a redirect, an error, too large): its connection is closed. */
	discard(body: BodyStream): void {
		this.request?.abort();
		body.destroy();
	}

	/**
	 * Counts the bytes as n8n reads them, and stops the stream past `maxBytes`. 'data' is
	 * emitted to every reader (listener, pipe or async iteration alike). The stream stays
	 * paused until n8n's reader attaches, so no byte flows past it; a reader that listens
	 * for 'data' alone does not resume a paused stream, so that is done here.
	 */
	streaming(body: BodyStream, tooLarge: () => FileDownloadError): void {
		this.body = body;
		this.lastActivityAt = Date.now();
		body.pause();
		body.on('data', (chunk) => {
			this.bytes += chunk.length;
			this.lastActivityAt = Date.now();
			if (this.bytes > this.limits.maxBytes) this.stop(tooLarge());
		});
		body.on('end', () => (this.ended = true));
		body.on('error', () => (this.failed = true));
		// Registered after the watch's own 'data' listener, so only n8n's reader resumes.
		body.on('newListener', (event: string) => {
			if (event === 'data') body.resume();
		});
	}

	/** Stops the download: the request is aborted (closing its connection), the body failed. */
	stop(reason: FileDownloadError): void {
		this.stopped ??= reason;
		this.failed = true;
		this.request?.abort();
		this.body?.destroy(this.stopped);
	}

	/** The download is over, whichever way: the watch and the signal listeners go. */
	finish(): void {
		this.over = true;
		for (const [signal, onAbort] of this.signals) signal.removeEventListener('abort', onAbort);
	}

	private async watch(): Promise<void> {
		const { timeoutMs, endAtMs = Infinity } = this.limits;
		while (!this.over && !this.stopped) {
			const now = Date.now();
			if (now >= endAtMs) this.stop(new FileDownloadError(NOT_IN_TIME));
			else if (now - this.lastActivityAt >= timeoutMs)
				this.stop(
					new FileDownloadError(
						this.body ? 'the file host stopped sending' : 'the file host did not answer in time',
					),
				);
			else {
				const next = Math.min(this.lastActivityAt + timeoutMs, endAtMs);
				await sleep(Math.max(1, Math.min(WATCH_STEP_MS, next - now)));
			}
		}
	}
}
