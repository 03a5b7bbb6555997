import { pipeline } from 'node:stream/promises';
import type { Request, Response } from 'express';
import type { ByteRange, Storage, StoredObjectStream } from '../../storage/storage';

// Answers a GET from a stored object, streamed (never held whole in memory), with its ETag,
// 304 to a matching If-None-Match, and one byte range (206) to a Range header, as a static file
// server does. A Range with several ranges is answered whole (allowed: a server may ignore
// Range), as is one whose If-Range names another version.

export interface SendStoredOptions {
  contentType: string;
  cacheControl: string;
}

/** True when If-Range is absent or names this version (a date there is not ours: answer whole). */
function ifRangeHolds(req: Request, etag: string): boolean {
  const ifRange = req.get('If-Range');
  return ifRange === undefined || ifRange === etag;
}

/** False when the store has no object under key; nothing has been sent then. */
export async function sendStored(req: Request, res: Response, storage: Storage, key: string, options: SendStoredOptions): Promise<boolean> {
  let object: StoredObjectStream | null;
  if (req.get('Range')) {
    // The size is needed to read the Range, so it is looked up first.
    const info = await storage.head(key);
    if (!info) return false;
    let range: ByteRange | undefined;
    if (ifRangeHolds(req, info.etag)) {
      const asked = req.range(info.size, { combine: true });
      if (asked === -1) {
        res.status(416).set({ 'Content-Range': `bytes */${info.size}`, 'Cache-Control': 'no-store' }).end();
        return true;
      }
      if (Array.isArray(asked) && asked.type === 'bytes' && asked.length === 1) range = asked[0];
    }
    object = await storage.read(key, range);
  } else {
    object = await storage.read(key);
  }
  if (!object) return false;
  res.set({ 'Content-Type': options.contentType, ETag: object.etag, 'Cache-Control': options.cacheControl, 'Accept-Ranges': 'bytes' });
  if (req.fresh || req.method === 'HEAD') {
    if (req.fresh) res.status(304);
    else res.set('Content-Length', String(object.size));
    object.body.destroy();
    res.end();
    return true;
  }
  if (object.range) res.status(206).set('Content-Range', `bytes ${object.range.start}-${object.range.end}/${object.size}`);
  res.set('Content-Length', String(object.range ? object.range.end - object.range.start + 1 : object.size));
  // A store that fails mid-stream ends the response early: with Content-Length set, the client
  // sees a short body, never a whole one. The error goes on to be logged.
  try {
    await pipeline(object.body, res);
  } catch (err) {
    // CASE: the client went away (a closed tab, a seek that cancels a range): nothing is wrong.
    if ((err as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE' && !res.writableFinished && req.destroyed) return true;
    throw err;
  }
  return true;
}
