import { gzipSync } from 'node:zlib';
import type { NextFunction, Request, Response } from 'express';
import { MemoryCache } from '../cache/memory-cache';
import { CSRF_COOKIE } from './csrf';
import { requestPathAndQuery } from './request-path';

// A micro-cache of answers that are the same for every guest, as nginx's proxy_cache would
// keep them, inside each process. Only what a handler declares the same for every guest is
// kept: a 200 HTML page or JSON answer whose handler set res.locals.sharedCacheControl
// (http/pages/cache-policy.ts for content pages, http/api-cache-headers.ts for the
// public read APIs), produced for a visitor with no cookie but csrftoken, and served to such
// visitors. Any other cookie (a session, the age gate's answer) bypasses the cache entirely,
// so nobody is ever served an answer produced for someone else. Entries live a few seconds,
// within the max-age the answer already allows any shared cache.
//
// Under load, as nginx's proxy_cache_lock and `proxy_cache_use_stale updating` do:
// - one request fills an entry: those that ask for the same URL meanwhile wait for its answer
//   (up to LOCK_WAIT_MS, then they go their own way) instead of each producing it again;
// - refresh ahead: once an entry is older than refreshAfterMs, the next request produces a
//   new copy while the others are still served the current one, so an answer read steadily
//   never expires in front of a crowd.
// Browsers ask for gzip: an entry is compressed once, on the first such request, instead of
// by the compression middleware on every hit (a 110 KB hub page took about 1 ms).
// The entries are a MemoryCache (cache/memory-cache.ts), bounded by count and by bytes; its
// single-flight load is the request producing the answer, which the others wait on.

interface Entry {
  body: Buffer;
  gzipped?: Buffer;
  contentType: string;
  cacheControl: string;
  vary: string | undefined;
  etag: string | undefined;
}

export interface GuestResponseCacheOptions {
  ttlMs?: number;
  /** Age after which the next request refreshes the entry; default: half the TTL. */
  refreshAfterMs?: number;
  maxEntries?: number;
  /** Bodies kept, plain and gzipped, at most this many bytes in all (least recently used go first). */
  maxBytes?: number;
  now?: () => number;
}

/** How long a request waits for another one that is producing the same answer. */
export const LOCK_WAIT_MS = 2_000;

const CACHEABLE_TYPES = ['text/html', 'application/json'];
/** Smaller answers go as they are (the compression middleware's threshold too). */
const GZIP_MIN_BYTES = 1024;

/** A guest: no cookie at all (a first visit) or only the csrftoken of an earlier one. */
function isPlainGuest(req: Request): boolean {
  const header = req.headers.cookie;
  if (!header) return true;
  const names = header.split(';').map((part) => part.split('=')[0].trim()).filter(Boolean);
  return names.length === 0 || (names.length === 1 && names[0] === CSRF_COOKIE);
}

/** A first visit's answer sets the csrftoken cookie, which says nothing about the answer. */
function setsNoCookieButCsrf(res: Response): boolean {
  const header = res.getHeader('Set-Cookie');
  const cookies = header === undefined ? [] : Array.isArray(header) ? header : [String(header)];
  return cookies.every((c) => c.startsWith(`${CSRF_COOKIE}=`));
}

export function guestResponseCache(opts: GuestResponseCacheOptions = {}) {
  const ttl = opts.ttlMs ?? 10_000;
  const refreshAfter = opts.refreshAfterMs ?? ttl / 2;
  const maxEntries = opts.maxEntries ?? 1000;
  const maxBytes = opts.maxBytes ?? 64 * 1024 * 1024;
  const entries = new MemoryCache<string, Entry>({
    ttlMs: ttl,
    maxEntries,
    maxSize: maxBytes,
    sizeOf: (e) => e.body.length + (e.gzipped?.length ?? 0),
    now: opts.now,
  });

  function serve(req: Request, res: Response, key: string, hit: Entry): void {
    // A first visit gets the same answer, but it also sets the csrftoken cookie (the CSRF
    // middleware ran before this one), so no shared cache may keep that answer.
    const cacheControl = res.get('Set-Cookie') ? hit.cacheControl.replace(/^public/, 'private') : hit.cacheControl;
    res.set({ 'Content-Type': hit.contentType, 'Cache-Control': cacheControl, 'X-Guest-Cache': 'hit' });
    if (hit.vary) res.set('Vary', hit.vary);
    // With the ETag already set, Express does not hash the body again, and still answers 304.
    // The same ETag for both encodings, as the compression middleware sends.
    if (hit.etag) res.set('ETag', hit.etag);
    res.vary('Accept-Encoding');
    if (hit.body.length >= GZIP_MIN_BYTES && req.acceptsEncodings('gzip', 'identity') === 'gzip') {
      let gzipped = hit.gzipped;
      if (!gzipped) {
        gzipped = gzipSync(hit.body);
        // Stored again with its size grown and its age kept (if it is still there).
        const storedAt = entries.storedAt(key);
        if (storedAt !== undefined && entries.get(key) === hit) entries.set(key, { ...hit, gzipped }, storedAt);
      }
      // The compression middleware leaves an answer that already has an encoding alone.
      res.set('Content-Encoding', 'gzip');
      res.send(gzipped);
      return;
    }
    res.send(hit.body);
  }

  /**
   * Lets the request through to its handler and keeps the answer if it is shareable: the
   * cache's load for this key is this response, which the requests asking meanwhile wait for.
   */
  function fill(key: string, res: Response, next: NextFunction): void {
    const produced = entries.refresh(
      key,
      () =>
        new Promise<Entry>((resolve, reject) => {
          // Finished or cut off without a shareable answer: nothing is kept, the waiters go their own way.
          const notShared = () => reject(new Error('not shareable'));
          res.once('finish', notShared);
          res.once('close', notShared);
          const send = res.send.bind(res);
          res.send = (body?: unknown) => {
            const shared: unknown = res.locals.sharedCacheControl;
            // res.render() hands res.send() a string before any Content-Type is set: that is HTML.
            const contentType = String(res.get('Content-Type') ?? '') || 'text/html; charset=utf-8';
            const keep =
              res.statusCode === 200 &&
              (typeof body === 'string' || Buffer.isBuffer(body)) &&
              typeof shared === 'string' &&
              CACHEABLE_TYPES.some((t) => contentType.startsWith(t)) &&
              setsNoCookieButCsrf(res);
            if (!keep) return send(body);
            const buffer = Buffer.isBuffer(body) ? body : Buffer.from(body as string, 'utf8');
            // Set before sending, so a 304 answer to this request still stores the 200.
            if (!res.get('Content-Type')) res.set('Content-Type', contentType);
            const out = send(buffer);
            // Stored by the cache (unless larger than maxBytes, which also drops the older copy).
            resolve({
              body: buffer,
              contentType,
              cacheControl: shared as string,
              vary: res.get('Vary') as string | undefined,
              etag: res.get('ETag') as string | undefined,
            });
            return out;
          };
          next();
        }),
    );
    produced.catch(() => {});
  }

  return function guestResponseCacheMiddleware(req: Request, res: Response, next: NextFunction): void {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !isPlainGuest(req)) return next();
    // One site a process: the answer depends on the path and query only (absolute URLs come
    // from SITE_URL), so no Host or X-Forwarded-* header can make an entry of its own.
    const key = requestPathAndQuery(req);
    const hit = entries.get(key);
    if (hit) {
      if ((entries.ageOf(key) ?? 0) >= refreshAfter && !entries.loading(key)) return fill(key, res, next);
      return serve(req, res, key, hit);
    }
    const running = entries.loading(key);
    if (!running) return fill(key, res, next);
    // Someone is producing this answer: wait for it rather than produce it again.
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), LOCK_WAIT_MS)));
    const answer = running.then(
      (entry) => entry,
      () => undefined,
    );
    void Promise.race([answer, timeout]).then((entry) => {
      clearTimeout(timer);
      if (res.headersSent || res.writableEnded) return;
      if (entry && entries.get(key)) serve(req, res, key, entry);
      else next(); // not shareable after all, or too slow: this request goes its own way
    });
  };
}
