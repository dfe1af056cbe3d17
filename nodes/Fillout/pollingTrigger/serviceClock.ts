import { servicePresentMs } from './pollState';

/** The earliest `date` header of Fillout's answers in one poll: Fillout's present. */
export class ServiceClock {
	private dateMs?: number;

	readonly observe = (header: (name: string) => string | undefined) => {
		const ms = Date.parse(header('date') ?? '');
		if (Number.isFinite(ms) && (this.dateMs === undefined || ms < this.dateMs)) this.dateMs = ms;
	};

	presentMs(n8nNowMs: number): number {
		return servicePresentMs(this.dateMs, n8nNowMs);
	}
}
