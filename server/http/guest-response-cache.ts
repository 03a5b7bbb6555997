import type { IncomingMessage, ServerResponse } from 'node:http';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import type { NextFunction, Request, Response } from 'express';
import fresh from 'fresh';
import Negotiator from 'negotiator';
import vary from 'vary';
import { MemoryCache } from '../cache/memory-cache';
import { CSRF_COOKIE } from './csrf';
import { requestPathAndQuery } from './request-path';
import { labelRoute, routeTemplate } from './route-template';
import { SURROGATE_CONTROL_HEADER, SURROGATE_KEY_HEADER } from './surrogate-keys';

// A micro-cache of answers that are the same for everybody, as nginx's proxy_cache would keep
// them, inside each process. (Named for guests, whom it served first; members share it now.)
// Only what a handler declares shareable is kept: a 200 HTML page or JSON answer whose handler
// set res.locals.sharedCacheControl (http/pages/cache-policy.ts for content pages,
// http/api-cache-headers.ts for the public read APIs) and set no cookie of its own. Entries
// live a few seconds, within the max-age the answer already allows any shared cache.
//
// Who is served from it:
// - guests, and members too where the handler also declared the answer the same for members
//   (res.locals.sameForMembers: content pages, whose personal parts come from the islands).
//   A read API's answer carries the member's own ratings: a member never gets a guest's copy.
// - only visitors whose cookies are all known: the csrftoken and the per-visitor cookies the
//   app names (the session, the signed-in cookie), which say nothing about a shared answer,
//   and the cookies the app names as changing it (the age gate's answer), whose values become
//   part of the key. Any other cookie bypasses the cache, as nothing is known about it.
// Before the session: an answer the same for everybody is served before the session middleware
// (serveBeforeSession; in production before Express itself, cache-hit-fast-path.ts), so a
// member's hit costs no session or member query.
// A session still goes through the session middleware once per renewEveryMs in each process
// (the store renews its expiry no more often), which also renews its rolling cookie. A first
// visit (no cookie at all) is served here too: a page the cache keeps prints no CSRF token, so
// nobody sets it a cookie (csrf.ts issues the token only where one is used).
// A hit carries no header of the visitor who filled the entry: the body, its type, ETag,
// Vary and Cache-Control only. The visitor's own cookies (a member's rolling session) are set
// on their own answer by the middleware that ran before this one, and set-cookie-private.ts
// makes any such answer `private`.
//
// Under load, as nginx's proxy_cache_lock and `proxy_cache_use_stale updating` do:
// - one request fills an entry: those that ask for the same URL meanwhile wait for its answer
//   (up to LOCK_WAIT_MS, then they go their own way) instead of each producing it again;
// - refresh ahead: once an entry is older than refreshAfterMs, the next request produces a
//   new copy while the others are still served the current one, so an answer read steadily
//   never expires in front of a crowd.
// Browsers ask for br or gzip: an entry is compressed once per encoding, on the first such
// request, instead of by the compression middleware on every hit (a 110 KB hub page took about
// 1 ms to gzip, 2.7 ms to brotli at quality 5, for 16.5 KB instead of gzip's 20.6 KB). Brotli
// goes to any client that accepts it (browsers list it after gzip, at the same q, and the
// compression middleware prefers it on such a tie too). nginx asks the app for gzip only
// (deploy/nginx.conf.template).
// The entries are a MemoryCache (cache/memory-cache.ts), bounded by count and by bytes; its
// single-flight load is the request producing the answer, which the others wait on.
// Content changed (purgeChange, cache/change-notices.ts): the entries whose Surrogate-Key names
// one of the change's keys go, found through an index (an entry's keys and its path are its
// tags), with the change's paths; an entry that names no keys may show anything and goes on
// any change. A change with neither keys nor paths (a reconnect) drops everything. An answer
// being produced across a change is served to its requests but not kept.

interface Entry {
  body: Buffer;
  /** The body compressed, each encoding made on the first request that takes it. */
  encoded: Partial<Record<Encoding, Buffer>>;
  contentType: string;
  cacheControl: string;
  vary: string | undefined;
  etag: string | undefined;
  /** What it shows, for the edge in front (surrogate-keys.ts): a hit names it as the answer did. */
  surrogateKey: string | undefined;
  /** How long the edge may keep it (surrogate-keys.ts), as the answer said. */
  surrogateControl: string | undefined;
  /** Produced under res.locals.sameForMembers: members may be served it too. */
  sameForMembers: boolean;
  /** The template of the route that produced it: a hit is counted under it (metrics.ts). */
  route: string;
}

/** The cookies the cache must know, besides csrftoken (the app's registry names them). */
export interface CacheCookies {
  /** Per-visitor cookies that never change a shared answer (the session, the signed-in cookie). */
  ignored: readonly string[];
  /** Cookies that change the answer: their values are part of the key (the age gate's answer). */
  keyed: readonly string[];
  /**
   * The session cookie, and how often its session must go through the session middleware to
   * be renewed (its rolling cookie and the store's expiry): see beforeSession.
   */
  session?: { name: string; renewEveryMs: number };
}

export interface GuestResponseCacheOptions {
  ttlMs?: number;
  /** Age after which the next request refreshes the entry; default: half the TTL. */
  refreshAfterMs?: number;
  maxEntries?: number;
  /** Bodies kept, plain and compressed, at most this many bytes in all (least recently used go first). */
  maxBytes?: number;
  now?: () => number;
  cookies?: CacheCookies;
}

/** How long an entry is served (nginx's micro-cache keeps its entries as long: deploy/nginx.conf.template). */
export const GUEST_RESPONSE_TTL_MS = 10_000;

/** How long a request waits for another one that is producing the same answer. */
export const LOCK_WAIT_MS = 2_000;

const CACHEABLE_TYPES = ['text/html', 'application/json'];

// An entry's tags in the index besides its Surrogate-Key keys: its path, and a tag for an entry
// naming no keys. A NUL never appears in a key (surrogate-keys.ts) nor in a path.
const pathTag = (path: string) => `\0path:${path}`;
const NAMES_NOTHING = '\0unnamed';
/** The path of an entry's cache key (without its query or keyed cookies). */
const pathOf = (key: string) => key.split('\0')[0].split('?')[0];
/** Smaller answers go as they are (the compression middleware's threshold too). */
export const COMPRESS_MIN_BYTES = 1024;

export type Encoding = 'br' | 'gzip';

// Quality 5: a hub page in 2.7 ms; 9 and up cost far more for little gain, 11 (zlib's default)
// took 466 ms. The size hint lets the encoder size its window for the body it is given.
export const COMPRESS: Record<Encoding, (body: Buffer) => Buffer> = {
  br: (body) =>
    brotliCompressSync(body, {
      params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.length },
    }),
  gzip: (body) => gzipSync(body),
};

const ENCODINGS = ['br', 'gzip', 'identity'];

/** A request as node hands it over, or as Express does (whose originalUrl is kept). */
type PlainRequest = IncomingMessage & { originalUrl?: string };

/** The encoding to answer with: the one the client gives the highest q, br on a tie, or none. */
export function chosenEncoding(req: Pick<IncomingMessage, 'headers'>): Encoding | undefined {
  // req.acceptsEncodings breaks a tie in q by the client's order, and browsers send
  // `gzip, deflate, br`: negotiator's `preferred` breaks it by ours, so br wins the tie.
  const chosen = new Negotiator(req).encoding(ENCODINGS, { preferred: ENCODINGS });
  return chosen === 'br' || chosen === 'gzip' ? chosen : undefined;
}

/**
 * The entry a request reads and fills: its path and query, then the keyed cookies it carries;
 * undefined when it carries a cookie the cache knows nothing about.
 */
function cacheKey(req: PlainRequest, cookies: CacheCookies, pairs = cookiePairs(req)): string | undefined {
  // One site a process: the answer depends on the path and query only (absolute URLs come
  // from SITE_URL), so no Host or X-Forwarded-* header can make an entry of its own.
  let key = requestPathAndQuery(req);
  const keyed: string[] = [];
  for (const [name, value] of pairs) {
    if (!name || name === CSRF_COOKIE || cookies.ignored.includes(name)) continue;
    if (!cookies.keyed.includes(name)) return undefined;
    keyed.push(`${name}=${value}`);
  }
  // A NUL never appears in a request path (null-characters.ts refuses it): no URL can name this key.
  if (keyed.length) key += '\0' + keyed.sort().join('\0');
  return key;
}

/**
 * The request's cookies as sent, [name, raw value] in order: read here because the cache runs
 * before cookie-parser (app.ts), and never decoded (the cache only compares them).
 */
function cookiePairs(req: IncomingMessage): Array<[string, string]> {
  const header = req.headers.cookie;
  if (!header) return [];
  return header.split(';').map((part) => {
    const eq = part.indexOf('=');
    return [(eq < 0 ? part : part.slice(0, eq)).trim(), eq < 0 ? '' : part.slice(eq + 1).trim()];
  });
}

const cookieValue = (pairs: Array<[string, string]>, name: string) => pairs.find(([n]) => n === name)?.[1];

function setCookies(res: Response): string {
  const header = res.getHeader('Set-Cookie');
  return header === undefined ? '' : Array.isArray(header) ? header.join('\n') : String(header);
}

export function guestResponseCache(opts: GuestResponseCacheOptions = {}) {
  const ttl = opts.ttlMs ?? GUEST_RESPONSE_TTL_MS;
  const refreshAfter = opts.refreshAfterMs ?? ttl / 2;
  const maxEntries = opts.maxEntries ?? 1000;
  const maxBytes = opts.maxBytes ?? 64 * 1024 * 1024;
  const cookies: CacheCookies = opts.cookies ?? { ignored: [], keyed: [] };
  // Its hits are the answers served from it, its misses the requests whose handler made the
  // answer (countLookUp below): a request looks in it twice, before and after the session.
  const entries = new MemoryCache<string, Entry>({
    name: 'guest-responses',
    ttlMs: ttl,
    maxEntries,
    maxSize: maxBytes,
    sizeOf: (e) => e.body.length + (e.encoded.br?.length ?? 0) + (e.encoded.gzip?.length ?? 0),
    now: opts.now,
    tagsOf: (e, key) => [...(e.surrogateKey ? e.surrogateKey.split(' ').filter(Boolean) : [NAMES_NOTHING]), pathTag(pathOf(key))],
  });

  /** The entry's body in this encoding, compressed now and stored with it if not yet. */
  function encodedBody(key: string, hit: Entry, encoding: Encoding): Buffer {
    // Another request may have stored a compressed copy of this same body since `hit` was read
    // (waiters are handed the entry their load produced).
    const current = entries.peek(key);
    const entry = current?.body === hit.body ? current : hit;
    const ready = entry.encoded[encoding];
    if (ready) return ready;
    const made = COMPRESS[encoding](entry.body);
    // Stored again with its size grown and its age kept (if it is still there).
    const storedAt = entries.storedAt(key);
    if (storedAt !== undefined && current === entry) entries.set(key, { ...entry, encoded: { ...entry.encoded, [encoding]: made } }, storedAt);
    return made;
  }

  /**
   * Sends a stored answer as Express's res.send would (its 304 and HEAD rules), with node's own
   * calls: the server's front (cache-hit-fast-path.ts) serves it before Express has run.
   * Headers go one by one with setHeader, never in writeHead's argument, so the writeHead
   * wrappers of the steps before (set-cookie-private.ts) see them.
   */
  function serve(req: PlainRequest, res: ServerResponse, key: string, hit: Entry): void {
    entries.countLookUp(true);
    labelRoute(res, hit.route);
    // This visitor's own cookies (a member's rolling session) were set by the middleware
    // before this one; set-cookie-private.ts then makes the answer private.
    res.setHeader('Cache-Control', hit.cacheControl);
    res.setHeader('X-Guest-Cache', 'hit');
    if (hit.vary) res.setHeader('Vary', hit.vary);
    vary(res, 'Accept-Encoding');
    if (hit.surrogateKey) res.setHeader(SURROGATE_KEY_HEADER, hit.surrogateKey);
    if (hit.surrogateControl) res.setHeader(SURROGATE_CONTROL_HEADER, hit.surrogateControl);
    const encoding = hit.body.length >= COMPRESS_MIN_BYTES ? chosenEncoding(req) : undefined;
    // The compression middleware leaves an answer that already has an encoding alone.
    if (encoding) res.setHeader('Content-Encoding', encoding);
    // The same ETag for both encodings, as the compression middleware sends.
    if (hit.etag) {
      res.setHeader('ETag', hit.etag);
      // The browser's copy is this one (Express's req.fresh): 304, with no body nor its type and length.
      if (fresh(req.headers, { etag: hit.etag })) {
        res.statusCode = 304;
        res.end();
        return;
      }
    }
    const body = encoding ? encodedBody(key, hit, encoding) : hit.body;
    res.statusCode = 200;
    res.setHeader('Content-Type', hit.contentType);
    res.setHeader('Content-Length', body.length);
    if (req.method === 'HEAD') res.end();
    else res.end(body);
  }

  /**
   * Lets the request through to its handler and keeps the answer if it is shareable: the
   * cache's load for this key is this response, which the requests asking meanwhile wait for.
   */
  function fill(key: string, req: Request, res: Response, next: NextFunction): void {
    // Cookies set so far are set again on every hit by the steps before this one; a cookie the
    // handler sets would not be: such an answer is not kept.
    const cookiesBefore = setCookies(res);
    const member = Boolean(req.user);
    entries.countLookUp(false);
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
            const sameForMembers = res.locals.sameForMembers === true;
            // res.render() hands res.send() a string before any Content-Type is set: that is HTML.
            const contentType = String(res.get('Content-Type') ?? '') || 'text/html; charset=utf-8';
            const keep =
              res.statusCode === 200 &&
              (typeof body === 'string' || Buffer.isBuffer(body)) &&
              typeof shared === 'string' &&
              (sameForMembers || !member) &&
              CACHEABLE_TYPES.some((t) => contentType.startsWith(t)) &&
              setCookies(res) === cookiesBefore;
            if (!keep) return send(body);
            const buffer = Buffer.isBuffer(body) ? body : Buffer.from(body as string, 'utf8');
            // Set before sending, so a 304 answer to this request still stores the 200.
            if (!res.get('Content-Type')) res.set('Content-Type', contentType);
            const out = send(buffer);
            // Stored by the cache (unless larger than maxBytes, which also drops the older copy).
            resolve({
              body: buffer,
              encoded: {},
              contentType,
              cacheControl: shared as string,
              vary: res.get('Vary') as string | undefined,
              etag: res.get('ETag') as string | undefined,
              surrogateKey: res.get(SURROGATE_KEY_HEADER) as string | undefined,
              surrogateControl: res.get(SURROGATE_CONTROL_HEADER) as string | undefined,
              sameForMembers,
              route: routeTemplate(req, res),
            });
            return out;
          };
          next();
        }),
    );
    produced.catch(() => {});
  }

  // Session cookies whose session went through the session middleware lately, in this process.
  const renewed = cookies.session ? new MemoryCache<string, true>({ name: 'renewed-sessions', ttlMs: cookies.session.renewEveryMs, maxEntries: 100_000, now: opts.now }) : null;

  /**
   * Serves, before the session is read, a fresh hit that is the same for everybody, or for
   * every guest when the request carries no session cookie; answers whether it did (if not,
   * the request goes on to the session, and must not be asked here again: a session due for
   * renewal is marked as renewed by asking). `beforeServing` runs only when it serves, first.
   * Runs before Express itself in production (cache-hit-fast-path.ts), and before
   * cookie-parser in any case: the header is read once, by cookiePairs.
   */
  function serveBeforeSession(req: PlainRequest, res: ServerResponse, beforeServing?: () => void): boolean {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const pairs = cookiePairs(req);
    const key = cacheKey(req, cookies, pairs);
    if (key === undefined) return false;
    const hit = entries.peek(key);
    if (!hit) return false;
    // Due for a refresh that nobody is making yet: the request after the session makes it.
    if ((entries.ageOf(key) ?? 0) >= refreshAfter && !entries.loading(key)) return false;
    const session = cookies.session ? cookieValue(pairs, cookies.session.name) : undefined;
    if (session !== undefined) {
      // Perhaps a member: only what is the same for members is served here, and the session
      // goes through its middleware now and then to be renewed.
      if (!hit.sameForMembers) return false;
      if (renewed && !renewed.get(session)) {
        renewed.set(session, true);
        return false; // this one renews the session; the next ones are served here
      }
    }
    // Without a session cookie nobody is signed in: a guest's answer (a read API's) goes too.
    beforeServing?.();
    serve(req, res, key, hit);
    return true;
  }

  /** serveBeforeSession as Express middleware. */
  function beforeSession(req: Request, res: Response, next: NextFunction): void {
    if (!serveBeforeSession(req, res)) next();
  }

  /** Forgets the entries of these paths (each with any query and cookie variant). */
  function purge(paths: readonly string[]): void {
    entries.deleteTagged(paths.map(pathTag));
  }

  /**
   * Content changed: forgets the entries naming one of its keys (and those naming none) and
   * those of its paths; a change with neither forgets everything. Answers how many went.
   */
  function purgeChange(change: { keys?: readonly string[]; paths: readonly string[] }): number {
    const keys = change.keys ?? [];
    if (!keys.length && !change.paths.length) {
      const all = entries.size;
      entries.clear();
      return all;
    }
    return entries.deleteTagged([...change.paths.map(pathTag), ...keys, ...(keys.length ? [NAMES_NOTHING] : [])]);
  }

  function afterSession(req: Request, res: Response, next: NextFunction): void {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const key = cacheKey(req, cookies);
    if (key === undefined) return next();
    // Signed in (the session middleware ran before this one): only answers the same for members.
    const member = Boolean(req.user);
    const servable = (entry: Entry) => !member || entry.sameForMembers;
    const hit = entries.peek(key);
    if (hit) {
      // A guest-only answer (a read API's): the member's own is neither served from nor stored here.
      if (!servable(hit)) return next();
      if ((entries.ageOf(key) ?? 0) >= refreshAfter && !entries.loading(key)) return fill(key, req, res, next);
      return serve(req, res, key, hit);
    }
    const running = entries.loading(key);
    if (!running) return fill(key, req, res, next);
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
      if (entry && servable(entry) && entries.peek(key)) return serve(req, res, key, entry);
      // Not shareable (with this visitor) after all, or too slow: this request goes its own way.
      entries.countLookUp(false);
      next();
    });
  }

  /** Forgets every entry (a change whose pages are not listed, or a missed notice). */
  function purgeAll(): void {
    entries.clear();
  }

  return Object.assign(afterSession, { beforeSession, serveBeforeSession, purge, purgeChange, purgeAll });
}
