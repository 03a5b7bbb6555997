import { Router, type Request, type Response } from 'express';
import { ValidationError } from '../../http/errors';
import { validate } from '../../http/validate';
import { isImageKey, type MediaFile } from './renditions';
import type { MediaService } from './service';
import { assertServedRendition, renditionQuerySchema, toRenditionParams } from './rendition-params';
import { ORIGINAL_CACHE_CONTROL, RENDITION_CACHE_CONTROL } from '../../cache/lifetimes';
import { sendStored } from './send-stored';

export { mediaCacheDir } from './renditions';

// Renditions a year (immutable), originals a day: named with the other caches' lifetimes.
export { ORIGINAL_CACHE_CONTROL, RENDITION_CACHE_CONTROL };

// ## Images: /media/{key}, or at one of IMAGE_SIZES: ?w=&h=&cmd=crop|fit (other sizes: 400)
// Served before sessions and CSRF (images need neither) and answered in plain text when
// something is wrong: an <img> never shows an HTML error page, so none is rendered. Streamed
// from the store, with ETag, If-None-Match and Range (send-stored.ts).
export function mediaApi(media: MediaService): Router {
  const router = Router();
  router.get('/media/*splat', (req, res) => serveMedia(media, req, res));

  return router;
}

async function serveMedia(renditions: MediaService, req: Request, res: Response): Promise<void> {
  const key = (req.params as { splat: string[] }).splat.join('/');
  if (!isImageKey(key)) return notFound(res);
  let params;
  try {
    params = toRenditionParams(validate(renditionQuerySchema, req.query));
    if (params) assertServedRendition(params);
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    res.status(400).set('Cache-Control', 'no-store').json(err.toJSON());
    return;
  }
  const file = params ? await renditions.rendition(key, params) : renditions.original(key);
  if (!file || !(await send(req, res, file, params ? RENDITION_CACHE_CONTROL : ORIGINAL_CACHE_CONTROL))) notFound(res);
}

/** False when the store has no such object (nothing is sent then). */
async function send(req: Request, res: Response, file: MediaFile, cacheControl: string): Promise<boolean> {
  if ('storage' in file.source) return sendStored(req, res, file.source.storage, file.source.key, { contentType: file.contentType, cacheControl });
  // A rendition the store could not keep (it is full): whole, from memory.
  res.set({ 'Content-Type': file.contentType, ETag: file.source.etag, 'Cache-Control': cacheControl });
  if (req.fresh) res.status(304).end();
  else res.send(file.source.body);
  return true;
}

function notFound(res: Response): void {
  res.status(404).set('Cache-Control', 'public, max-age=60').type('text/plain').send('Not found');
}
