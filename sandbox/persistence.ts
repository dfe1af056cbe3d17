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
	/** A failed background write, reported by the next flush() (close() calls it). */
	private failure: unknown;

	constructor(
		private readonly path: string,
		private readonly snapshot: () => unknown,
		private readonly debounceMs = 50,
	) {}

	schedule(): void {
		this.dirty = true;
		if (this.timer) return;
		this.timer = setTimeout(() => {
			this.timer = undefined;
			this.flush().then(undefined, (error: unknown) => {
				this.failure = error;
			});
		}, this.debounceMs);
	}

	/** Writes pending changes; resolves once the file on disk holds the latest state. */
	async flush(): Promise<void> {
		if (this.timer) {
			clearTimeout(this.timer);
			this.timer = undefined;
		}
		// Chain writes so two renames never race and the last one wins.
		const run = this.writing.then(() => this.writeIfDirty());
		this.writing = run.then(undefined, (error: unknown) => {
			this.failure = error;
		});
		await this.writing;
		if (this.failure !== undefined) {
			const failure = this.failure;
			this.failure = undefined;
			throw failure instanceof Error ? failure : new Error(String(failure));
		}
	}

	private async writeIfDirty(): Promise<void> {
		if (!this.dirty) return;
		this.dirty = false;
		const temp = `${this.path}.${process.pid}.tmp`;
		let written = false;
		try {
			await writeFile(temp, JSON.stringify(this.snapshot()));
			await rename(temp, this.path);
			written = true;
		} finally {
			// A failed write keeps the changes pending, so the next write tries again.
			if (!written) this.dirty = true;
		}
	}
}
