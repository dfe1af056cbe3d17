/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- the sandbox is a dev tool: it writes its state file with node:fs and debounces with timers */
/**
 * Keeps the state in a JSON file across restarts. Writes are debounced (a burst of changes
 * makes one write) and atomic (temp file + rename), so a crash never leaves half a file;
 * flush() writes whatever is pending, and close() of the sandbox calls it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';

export function readStateFile<T>(path: string): T | undefined {
	if (!existsSync(path)) return undefined;
	return JSON.parse(readFileSync(path, 'utf8')) as T;
}

export class StateFile {
	private timer: ReturnType<typeof setTimeout> | undefined;
	private writing: Promise<void> = Promise.resolve();
	private dirty = false;

	constructor(
		private readonly path: string,
		private readonly snapshot: () => unknown,
		private readonly debounceMs = 25,
	) {}

	schedule(): void {
		this.dirty = true;
		if (this.timer) return;
		this.timer = setTimeout(() => {
			this.timer = undefined;
			void this.flush();
		}, this.debounceMs);
	}

	/** Writes pending changes; resolves once the file on disk holds the latest state. */
	async flush(): Promise<void> {
		if (this.timer) {
			clearTimeout(this.timer);
			this.timer = undefined;
		}
		// Chain writes so two renames never race and the last one wins.
		this.writing = this.writing.then(async () => {
			if (!this.dirty) return;
			this.dirty = false;
			const temp = `${this.path}.${process.pid}.tmp`;
			await writeFile(temp, JSON.stringify(this.snapshot()));
			await rename(temp, this.path);
		});
		return this.writing;
	}
}
