import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import type { NextFunction, Request, Response } from 'express';
import { MemoryCache } from '../cache/memory-cache';
import { COMPRESS, COMPRESS_MIN_BYTES, chosenEncoding, type Encoding } from './guest-response-cache';

// The read APIs' answers, compressed once per distinct body. A member's or a guest's list or
// search answer that the guest response cache does not serve (a member, another cookie) is
// still, byte for byte, the answer most others get: the kept answer (db/answer-cache.ts) with
// nothing personal in it, unless the member rated a place on the page. Compressing the same
// 27 KB listing page again for each of them was a fifth of the CPU such a request cost (the
// compression middleware's Brotli stream: about 0.27 ms, on the thread pool, plus the
// stream's own work); hashing the body to find its compressed copy costs 0.02 ms.
//
// Kept by content (the SHA-256 of the body and the encoding), so a copy can only ever be
// served for the very bytes it was made from: a member's own ratings make another body and
// another copy. Only answers whose route says they are common (res.locals.commonAnswer, set
// by http/api-cache-headers.ts's sharedWithGuests) are kept, so that answers unique to one
// member do not push the common ones out. Everything else goes to the compression middleware
// as before, and so does a body this middleware leaves (too small, not JSON, not a 200, a
// client that takes no compression, Cache-Control: no-transform).
// Installed after the compression middleware (server/app.ts): the guest response cache,
// which wraps res.send later, still sees the plain body.
//
// A body seen for the first time is compressed quickly (Brotli quality 2: 0.10 ms for a 21 KB
// search answer, 16% larger) and not kept: most searches nobody made lately are never asked
// again, and quality 5 (0.27 ms) was wasted on them. Only its hash is remembered; the second
// request for the same bytes makes the copy at full quality that the others get.
// A HEAD request sends no body, so nothing is compressed for it (the compression middleware
// leaves HEAD alone too).

export interface CompressedAnswersOptions {
  /** How long an unused copy stays. */
  ttlMs?: number;
  maxEntries?: number;
  /** Compressed copies kept, at most this many bytes in all (least recently used go first). */
  maxBytes?: number;
  /** The compressors of the copies kept (tests count their calls). */
  compress?: Record<Encoding, (body: Buffer) => Buffer>;
  /** The compressors of a body seen for the first time (not kept). */
  compressOnce?: Record<Encoding, (body: Buffer) => Buffer>;
}

/** How long an unused compressed copy (and the hash of a body seen once) stays. */
export const COMPRESSED_COPY_TTL_MS = 60_000;

/** Fast settings for a body that may never be asked for again. */
export const COMPRESS_ONCE: Record<Encoding, (body: Buffer) => Buffer> = {
  br: (body) =>
    brotliCompressSync(body, {
      params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 2, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.length },
    }),
  gzip: (body) => gzipSync(body, { level: 1 }),
};

const isJson = (res: Response) => String(res.getHeader('Content-Type') ?? '').startsWith('application/json');
const noTransform = (res: Response) => /(?:^|,)\s*no-transform\s*(?:,|$)/i.test(String(res.getHeader('Cache-Control') ?? ''));

export function compressedAnswers(opts: CompressedAnswersOptions = {}) {
  const compress = opts.compress ?? COMPRESS;
  const compressOnce = opts.compressOnce ?? COMPRESS_ONCE;
  const ttlMs = opts.ttlMs ?? COMPRESSED_COPY_TTL_MS;
  const copies = new MemoryCache<string, Buffer>({
    name: 'compressed-copies',
    ttlMs,
    maxEntries: opts.maxEntries ?? 2000,
    maxSize: opts.maxBytes ?? 16 * 1024 * 1024,
    sizeOf: (b) => b.length,
  });
  // The keys of bodies compressed once and not kept (a hash each: 50 bytes).
  const seenOnce = new MemoryCache<string, true>({ name: 'seen-once-bodies', ttlMs, maxEntries: 20_000 });

  return function compressedAnswersMiddleware(req: Request, res: Response, next: NextFunction): void {
    if (req.method !== 'GET') return next();
    const send = res.send;
    res.send = function sendCompressedCopy(this: Response, body?: unknown) {
      const common =
        res.locals.commonAnswer === true &&
        (typeof body === 'string' || Buffer.isBuffer(body)) &&
        res.statusCode === 200 &&
        !res.getHeader('Content-Encoding') &&
        isJson(res) &&
        !noTransform(res);
      if (!common) return send.call(this, body);
      const plain = Buffer.isBuffer(body) ? body : Buffer.from(body as string, 'utf8');
      if (plain.length < COMPRESS_MIN_BYTES) return send.call(this, plain);
      res.vary('Accept-Encoding');
      const encoding = chosenEncoding(req);
      if (!encoding) return send.call(this, plain);
      // The ETag of the plain body, as Express makes it: the same for every encoding, as the
      // compression middleware leaves it (Express then answers 304 by it, and hashes nothing).
      const etagOf = req.app.get('etag fn') as ((b: Buffer) => string) | undefined;
      if (etagOf && !res.getHeader('ETag')) res.setHeader('ETag', etagOf(plain));
      // Not modified: Express answers 304, with no body to compress.
      if (req.fresh) return send.call(this, plain);
      const key = `${encoding}:${createHash('sha256').update(plain).digest('base64')}`;
      let copy = copies.get(key);
      if (!copy && !seenOnce.get(key)) {
        seenOnce.set(key, true);
        copy = compressOnce[encoding](plain);
      } else if (!copy) {
        copy = compress[encoding](plain);
        copies.set(key, copy);
        seenOnce.delete(key);
      }
      // The compression middleware leaves an answer that already has an encoding alone.
      res.setHeader('Content-Encoding', encoding);
      return send.call(this, copy);
    } as Response['send'];
    next();
  };
}
