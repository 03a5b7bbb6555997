import http from 'node:http';
import https from 'node:https';
import { pinnedLookup, resolveSafely, UnsafeAddressError, type AddressPolicy, type ResolvedHost } from '../../http/outbound-address';
import { ValidationError } from '../../http/errors';
import { newKey, type Storage } from '../../storage/storage';
import { normaliseImage, NotAnImageError } from '../media/ingest';
import { UPLOADED_IMAGE_MAX_SIDE } from '../uploads/service';

// A picture pasted into a story from another site is fetched into the upload pipeline (issue
// 37), under the rules an organiser's calendar feed is fetched by (http/outbound-address.ts):
// http(s) only, no address of this server's own networks, each redirect checked again, the
// connection pinned to the address checked, a time and a size limit. Anything else is refused
// with the reason the editor shows beside the picture.

export interface ImageFetchLimits extends AddressPolicy {
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
}

export const IMAGE_FETCH_LIMITS: Omit<ImageFetchLimits, 'allowLoopback'> = { timeoutMs: 10_000, maxBytes: 15 * 1024 * 1024, maxRedirects: 3 };
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

const refuse = (message: string) => ValidationError.field('url', message);

function getOnce(url: URL, host: ResolvedHost, limits: ImageFetchLimits, signal: AbortSignal): Promise<{ status: number; location: string | null; type: string; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(url, { method: 'GET', headers: { 'User-Agent': 'TorontoGuide-Newsroom/1.0 (+pasted picture)', Accept: 'image/*' }, lookup: pinnedLookup(host), signal, agent: false }, (res) => {
      const status = res.statusCode ?? 0;
      const location = typeof res.headers.location === 'string' ? res.headers.location : null;
      const type = String(res.headers['content-type'] ?? '');
      if (status !== 200) {
        res.resume();
        return resolve({ status, location, type, body: Buffer.alloc(0) });
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > limits.maxBytes) {
          req.destroy();
          reject(refuse(`The picture is larger than ${limits.maxBytes / 1024 / 1024} MB.`));
          return;
        }
        chunks.push(chunk);
      });
      res.on('end', () => resolve({ status, location, type, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Fetches the picture at `raw` and stores it; answers its media key, or throws a 400 naming `url`. */
export async function fetchPastedImage(storage: Storage, raw: string, limits: ImageFetchLimits): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse('Enter a web address.');
  }
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), limits.timeoutMs);
  let body: Buffer;
  try {
    for (let hop = 0; ; hop++) {
      if (url.protocol !== 'https:' && url.protocol !== 'http:') throw refuse(`Only http and https pictures can be copied, not ${url.protocol.replace(':', '')}.`);
      const host = await resolveSafely(url.hostname, limits);
      const answer = await getOnce(url, host, limits, controller.signal);
      if (answer.status === 200) {
        if (!answer.type.startsWith('image/')) throw refuse(`That address is not a picture (${answer.type || 'no type given'}).`);
        body = answer.body;
        break;
      }
      if (REDIRECTS.has(answer.status) && answer.location && hop < limits.maxRedirects) {
        url = new URL(answer.location, url);
        continue;
      }
      throw refuse(`The picture's site answered ${answer.status}${http.STATUS_CODES[answer.status] ? ` ${http.STATUS_CODES[answer.status]}` : ''}.`);
    }
  } catch (err) {
    if (err instanceof ValidationError) throw err;
    if (controller.signal.aborted) throw refuse(`The picture took longer than ${Math.round(limits.timeoutMs / 1000)} s to arrive.`);
    if (err instanceof UnsafeAddressError) throw refuse(err.message);
    const code = (err as NodeJS.ErrnoException).code;
    throw refuse(`The picture's site could not be reached${code ? ` (${code})` : ''}.`);
  } finally {
    clearTimeout(timer);
  }
  let stored;
  try {
    // normaliseImage takes its own image-work slot.
    stored = await normaliseImage(body, { maxSide: UPLOADED_IMAGE_MAX_SIDE, quality: 88, keepAlpha: true });
  } catch (err) {
    if (err instanceof NotAnImageError) throw refuse('That file is not a picture this site can read.');
    throw err;
  }
  const key = newKey('stories/pasted', stored.extension);
  await storage.put(key, stored.data);
  return key;
}
