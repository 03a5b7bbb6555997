import os from 'node:os';
import sharp from 'sharp';
import type { NextFunction, Request, Response } from 'express';
import { Semaphore } from './semaphore';
import { gaugeAtScrape } from '../../http/metrics';

// Limits on image work that hold for the whole process, because what they protect is the
// process's: its cores, its memory and libuv's thread pool (4 threads, shared with file I/O,
// which sharp also runs on). They are module-level on purpose: two apps in one process (tests)
// share the same machine, so a limiter per app would double the bound.

/**
 * Image decodes and encodes at once (photo ingest, event images, renditions): one core is
 * left to the event loop so pages and APIs keep answering while photos are processed.
 */
export const IMAGE_WORK_CONCURRENCY = Math.max(1, Math.min(4, os.availableParallelism() - 1));
export const imageWork = new Semaphore(IMAGE_WORK_CONCURRENCY);

// Each operation on one libvips thread: the semaphore, not libvips, decides how many cores
// image work takes. No operation cache: uploads are seen once, and renditions are cached on
// disk, so sharp's 50 MB in-memory cache only kept decoded pixels alive.
sharp.concurrency(1);
sharp.cache(false);

/** Runs sharp work (decode, resize, encode) when a slot is free. */
export function withImageWork<T>(task: () => Promise<T>): Promise<T> {
  return imageWork.run(task);
}

/**
 * Upload bodies read and held at once: one more than the image-work slots, so a body is read
 * while each slot decodes, and no more (a listing photo's body is held as its decoded bytes,
 * 6 MB at most, json-base64-body-middleware.ts; an event image up to 10 MB; each also holds its re-encoded
 * photo until answered). The rest wait with their bodies unread in the socket, costing no
 * memory, so 40 concurrent uploads hold at most this many.
 */
export const UPLOAD_BODY_CONCURRENCY = Math.min(4, IMAGE_WORK_CONCURRENCY + 1);
export const uploadBodies = new Semaphore(UPLOAD_BODY_CONCURRENCY);
// The figures (server/http/metrics.ts), read at each scrape.
gaugeAtScrape('guide_uploads_in_flight', `Upload bodies being read or processed now (at most UPLOAD_BODY_CONCURRENCY, ${UPLOAD_BODY_CONCURRENCY} here)`, () => uploadBodies.active);
gaugeAtScrape('guide_image_work_in_flight', `Image decodes and encodes running now (at most IMAGE_WORK_CONCURRENCY, ${IMAGE_WORK_CONCURRENCY} here)`, () => imageWork.active);

/**
 * Middleware: waits for an upload slot before the body parser that follows it runs, and gives
 * it back when the response is over (sent, failed or abandoned by the client).
 */
export function uploadBodySlot(req: Request, res: Response, next: NextFunction): void {
  // CASE: a body already read (a small urlencoded form, parsed app-wide): nothing left to hold.
  // (Node destroys a request once its body is consumed, so `req.destroyed` says nothing here.)
  if (req.readableEnded) return next();
  uploadBodies.acquire().then((release) => {
    // CASE: the client gave up while queued; nothing is left to answer. Its response closed
    // before this listener could be added, so the slot goes back here.
    if (res.closed || res.destroyed || res.writableEnded) {
      release();
      return;
    }
    res.once('close', release);
    next();
  }, next);
}
