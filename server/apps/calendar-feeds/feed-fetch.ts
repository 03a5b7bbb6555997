import http from 'node:http';
import https from 'node:https';
import { pinnedLookup, resolveSafely, UnsafeAddressError, type AddressPolicy, type ResolvedHost } from '../../http/outbound-address';

// One fetch of a feed, bounded: http(s) only, every host checked (http/outbound-address.ts) before
// connecting, at most a few redirects (each checked again), a total time limit and a size
// limit, and a conditional request (If-None-Match, If-Modified-Since) so an unchanged feed
// answers 304 with no body.

export interface FetchLimits extends AddressPolicy {
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
}

export interface Validators {
  etag: string | null;
  lastModified: string | null;
}

export type FetchResult = { status: 'not-modified' } | { status: 'ok'; body: string; etag: string | null; lastModified: string | null };

/** A fetch that failed, with the reason the member is shown. */
export class FeedFetchError extends Error {}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const USER_AGENT = 'TorontoGuide-CalendarFeeds/1.0 (+calendar import)';

/** Checks a URL's scheme; webcal:// (what calendar apps hand out) is https. */
export function feedUrl(raw: string): URL {
  const url = new URL(raw.replace(/^webcals?:\/\//i, 'https://'));
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new FeedFetchError(`Only http and https addresses can be fetched, not ${url.protocol.replace(':', '')}.`);
  return url;
}

interface OneAnswer {
  status: number;
  location: string | null;
  etag: string | null;
  lastModified: string | null;
  body: string;
}

function requestOnce(url: URL, host: ResolvedHost, validators: Validators, limits: FetchLimits, signal: AbortSignal): Promise<OneAnswer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'User-Agent': USER_AGENT, Accept: 'text/calendar, */*;q=0.5' };
    if (validators.etag) headers['If-None-Match'] = validators.etag;
    if (validators.lastModified) headers['If-Modified-Since'] = validators.lastModified;
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(url, { method: 'GET', headers, lookup: pinnedLookup(host), signal, agent: false }, (res) => {
      const status = res.statusCode ?? 0;
      const header = (name: string) => {
        const v = res.headers[name];
        return typeof v === 'string' ? v : null;
      };
      if (status !== 200) {
        res.resume();
        resolve({ status, location: header('location'), etag: null, lastModified: null, body: '' });
        return;
      }
      const declared = Number(header('content-length') ?? NaN);
      if (declared > limits.maxBytes) {
        req.destroy();
        reject(new FeedFetchError(`The feed is larger than ${limits.maxBytes / 1024 / 1024} MB.`));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > limits.maxBytes) {
          req.destroy();
          reject(new FeedFetchError(`The feed is larger than ${limits.maxBytes / 1024 / 1024} MB.`));
          return;
        }
        chunks.push(chunk);
      });
      res.on('end', () => resolve({ status, location: null, etag: header('etag'), lastModified: header('last-modified'), body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Fetches a feed; throws FeedFetchError with a reason a member can act on. */
export async function fetchFeed(raw: string, validators: Validators, limits: FetchLimits): Promise<FetchResult> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), limits.timeoutMs);
  try {
    let url = feedUrl(raw);
    for (let hop = 0; ; hop++) {
      const host = await resolveSafely(url.hostname, limits);
      const answer = await requestOnce(url, host, validators, limits, controller.signal);
      if (answer.status === 304) return { status: 'not-modified' };
      if (answer.status === 200) return { status: 'ok', body: answer.body, etag: answer.etag, lastModified: answer.lastModified };
      if (REDIRECTS.has(answer.status) && answer.location) {
        if (hop >= limits.maxRedirects) throw new FeedFetchError(`The feed redirected more than ${limits.maxRedirects} times.`);
        url = feedUrl(new URL(answer.location, url).href);
        continue;
      }
      throw new FeedFetchError(`The feed's server answered ${answer.status}${http.STATUS_CODES[answer.status] ? ` ${http.STATUS_CODES[answer.status]}` : ''}.`);
    }
  } catch (err) {
    if (controller.signal.aborted) throw new FeedFetchError(`The feed took longer than ${limits.timeoutMs >= 1000 ? `${Math.round(limits.timeoutMs / 1000)} s` : `${limits.timeoutMs} ms`} to arrive.`);
    if (err instanceof FeedFetchError) throw err;
    if (err instanceof UnsafeAddressError) throw new FeedFetchError(err.message);
    const code = (err as NodeJS.ErrnoException).code;
    throw new FeedFetchError(`The feed could not be reached${code ? ` (${code})` : ''}.`);
  } finally {
    clearTimeout(timer);
  }
}
