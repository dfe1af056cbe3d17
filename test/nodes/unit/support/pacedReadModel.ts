/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test-only: setImmediate, which the simulated clock leaves real, lets the node's promises run on between its timers */
import FakeTimers from '@sinonjs/fake-timers';
import { sleep, type IHttpRequestOptions } from 'n8n-workflow';

import { readSubmissions } from '../../../../nodes/Fillout/reading/readSubmissions';
import type { PageQuery } from '../../../../nodes/Fillout/reading/pages';
import { ListModel, type ModelRow } from './listModel';
import { transportContext } from './transportContext';

/**
 * Return All on a simulated clock with no n8n around it: the node's own readSubmissions,
 * transport, retries and pacer, a fresh credential each run, against ListModel behind
 * Fillout's limit. Each request takes half the round trip each way plus up to half the
 * jitter, and Fillout counts it on arrival in its fixed window of 5 (docs/fillout-api.md,
 * "Rate limit"), answering 429 over it. `lateShare` of answers reach the node up to
 * `lateMs` late, as a busy n8n reads them. What the node alone costs over the floor.
 */
export interface PacedReadCase {
	rows: number;
	roundTripMs: number;
	jitterMs: number;
	lateShare: number;
	lateMs: number;
}

export interface PacedRead {
	submissions: ModelRow[];
	/** Pages Fillout answered 200. */
	requests: number;
	/** Fillout's windows the requests opened. */
	windows: number;
	/** Requests Fillout refused for its window (each sent again by the node). */
	refused: number;
	/** From the read's start to its end. */
	endMs: number;
	/** When each request reached Fillout, from the read's start: a run replays from its seed. */
	arrivalsMs: number[];
}

const LIMIT = 5;
const WINDOW_MS = 1000;
let runs = 0;

export async function runPacedRead(spec: PacedReadCase, random: () => number): Promise<PacedRead> {
	const service = new ListModel();
	service.addMany(spec.rows, Date.UTC(2024, 0, 1), 1000);
	const window = { openedAt: -Infinity, counted: 0, opened: 0, refused: 0 };
	let requests = 0;
	const arrivalsMs: number[] = [];
	const clock = FakeTimers.install({
		now: Date.UTC(2026, 0, 1),
		toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date', 'performance'],
	});
	const began = clock.now;
	// The transport's retry jitter, seeded too: a run replays from its seed.
	const mathRandom = Math.random;
	Math.random = random;
	const way = () => spec.roundTripMs / 2 + (random() * spec.jitterMs) / 2;

	const answer = async ({ qs }: IHttpRequestOptions) => {
		await sleep(way());
		arrivalsMs.push(clock.now - began);
		if (clock.now >= window.openedAt + WINDOW_MS) {
			Object.assign(window, { openedAt: clock.now, counted: 0, opened: window.opened + 1 });
		}
		const left = LIMIT - ++window.counted;
		const page = left >= 0 ? service.list(qs as unknown as PageQuery) : undefined;
		if (page) requests++;
		else window.refused++;
		await sleep(way() + (random() < spec.lateShare ? random() * spec.lateMs : 0));
		const headers = {
			'ratelimit-limit': String(LIMIT),
			'ratelimit-remaining': String(Math.max(0, left)),
			...(page ? {} : { 'retry-after': '1' }),
		};
		return page
			? { statusCode: 200, headers, body: page }
			: { statusCode: 429, headers, body: { message: 'Too many requests. Try again soon.' } };
	};

	try {
		let read: { submissions?: ModelRow[]; error?: unknown } | undefined;
		readSubmissions(transportContext(`paced-read-${++runs}`, answer), 'form', { sort: 'asc' }).then(
			(submissions) => (read = { submissions: submissions as unknown as ModelRow[] }),
			(error: unknown) => (read = { error }),
		);
		while (!read) {
			// With no timer set, the node's promises run on (setImmediate is not faked).
			for (let idle = 0; !read && clock.countTimers() === 0; idle++) {
				if (idle === 20) throw new Error('The read stopped, waiting on nothing');
				await new Promise((resolve) => setImmediate(resolve));
			}
			if (!read) await clock.nextAsync();
		}
		if (!read.submissions) throw read.error;
		const { opened: windows, refused } = window;
		const endMs = clock.now - began;
		return { submissions: read.submissions, requests, windows, refused, endMs, arrivalsMs };
	} finally {
		Math.random = mathRandom;
		clock.uninstall();
	}
}
