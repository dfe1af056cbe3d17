/** Fillout's regional API hosts (docs/fillout-api.md, "Hosts"); the API lives under `/v1/api`. */
export const REGION_HOSTS: Readonly<Record<string, string>> = {
	us: 'https://api.fillout.com',
	eu: 'https://eu-api.fillout.com',
	ca: 'https://ca-api.fillout.com',
};

export const API_PATH = '/v1/api';

/**
 * A base address as users paste it (with or without `/v1/api`, trailing slashes,
 * spaces) turned into the API root. Undefined when it is not an http(s) address.
 */
export function normalizeApiRoot(base: unknown): string | undefined {
	if (typeof base !== 'string') return undefined;
	const trimmed = base.trim().replace(/\/+$/, '');
	if (!/^https?:\/\/[^/\s]+/i.test(trimmed)) return undefined;
	try {
		new URL(trimmed);
	} catch {
		return undefined;
	}
	return trimmed.endsWith(API_PATH) ? trimmed : `${trimmed}${API_PATH}`;
}

/** The API root for an API-key credential's region (or its custom base URL). */
export function apiRootForRegion(region: unknown, baseUrl: unknown): string | undefined {
	if (region === 'custom') return normalizeApiRoot(baseUrl);
	const host = REGION_HOSTS[typeof region === 'string' && region ? region : 'us'];
	return host === undefined ? undefined : `${host}${API_PATH}`;
}
