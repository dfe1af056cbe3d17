/**
 * Seeded pseudo-random numbers, so the seed data (and bulk generation) is the same on every
 * start. sfc32 keeps 128 bits of state: generated ids do not collide the way they would with a
 * 32-bit generator once tens of thousands of submissions exist.
 */

export type PrngState = [number, number, number, number];

/** cyrb128: spreads a string over four 32-bit words to seed sfc32. */
function hashToState(text: string): PrngState {
	let h1 = 1779033703;
	let h2 = 3144134277;
	let h3 = 1013904242;
	let h4 = 2773480762;
	for (let i = 0; i < text.length; i++) {
		const k = text.charCodeAt(i);
		h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
		h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
		h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
		h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
	}
	h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
	h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
	h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
	h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
	h1 ^= h2 ^ h3 ^ h4;
	h2 ^= h1;
	h3 ^= h1;
	h4 ^= h1;
	return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const HEX = '0123456789abcdef';

export class Prng {
	private a: number;
	private b: number;
	private c: number;
	private d: number;

	constructor(seed: string | PrngState) {
		[this.a, this.b, this.c, this.d] = typeof seed === 'string' ? hashToState(seed) : seed;
		// The first outputs of sfc32 are weakly mixed; discard a few.
		if (typeof seed === 'string') for (let i = 0; i < 12; i++) this.nextUint32();
	}

	state(): PrngState {
		return [this.a, this.b, this.c, this.d];
	}

	nextUint32(): number {
		const t = (((this.a + this.b) | 0) + this.d) | 0;
		this.d = (this.d + 1) | 0;
		this.a = this.b ^ (this.b >>> 9);
		this.b = (this.c + (this.c << 3)) | 0;
		this.c = (this.c << 21) | (this.c >>> 11);
		this.c = (this.c + t) | 0;
		return t >>> 0;
	}

	/** Uniform in [0, 1). */
	next(): number {
		return this.nextUint32() / 4294967296;
	}

	/** Integer in [min, max], both inclusive. */
	int(min: number, max: number): number {
		return min + Math.floor(this.next() * (max - min + 1));
	}

	chance(probability: number): boolean {
		return this.next() < probability;
	}

	pick<T>(items: readonly T[]): T {
		return items[Math.floor(this.next() * items.length)];
	}

	/** `count` distinct items in random order (all of them when count >= length). */
	sample<T>(items: readonly T[], count: number): T[] {
		const pool = [...items];
		for (let i = pool.length - 1; i > 0; i--) {
			const j = Math.floor(this.next() * (i + 1));
			[pool[i], pool[j]] = [pool[j], pool[i]];
		}
		return pool.slice(0, Math.min(count, pool.length));
	}

	alnum(length: number): string {
		let out = '';
		for (let i = 0; i < length; i++) out += ALNUM[this.nextUint32() % ALNUM.length];
		return out;
	}

	hex(length: number): string {
		let out = '';
		for (let i = 0; i < length; i++) out += HEX[this.nextUint32() & 15];
		return out;
	}

	/** A version-4-shaped UUID, like the live service's submission ids. */
	uuid(): string {
		const h = this.hex(32);
		const variant = HEX[8 + (this.nextUint32() & 3)];
		return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
	}
}
