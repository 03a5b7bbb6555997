import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { isDatabaseUnavailable } from '../db/unavailable';
import { isStorageFull } from '../storage/storage-full';
import { HttpError, InsufficientStorageError, NotFoundError, PayloadTooLargeError, ServiceUnavailableError } from './errors';
import { databaseInputError } from './database-input-errors';
import { multipartHttpError } from './multipart-errors';
import { labelRoute, UNMATCHED } from './route-template';

/** The log line of an upload refused for want of room (forms that answer it themselves log it too). */
export const STORAGE_FULL_LOG = 'request answered 507: no room left in the media storage (disk or quota full); free space under DATA_DIR';

export function isApiRequest(req: Request): boolean {
  return req.path.startsWith('/api/') || req.path.startsWith('/streams/') || (req.xhr && !req.accepts('html'));
}

/** Turns errors from body parsers and multer into our typed errors; others stay as they are. */
function normalise(err: unknown): unknown {
  if (err instanceof HttpError) return err;
  // A database restart or a terminated connection: try again shortly, not a bug (503, not 500).
  if (isDatabaseUnavailable(err)) return new ServiceUnavailableError(undefined, { cause: err });
  // The media disk (or its quota) is full: the upload was not kept; 507 with a message to read.
  if (isStorageFull(err)) return new InsufficientStorageError(undefined, { cause: err });
  const e = err as { type?: string; status?: number; code?: string; message?: string; field?: string };
  if (e?.type === 'entity.parse.failed') return new HttpError(400, `JSON parse error - ${e.message ?? 'invalid JSON'}`);
  if (e?.type === 'entity.too.large') return new PayloadTooLargeError();
  const multipart = multipartHttpError(err);
  if (multipart) return multipart;
  if (e?.type === 'charset.unsupported' || e?.type === 'encoding.unsupported') return new HttpError(415, e.message ?? 'Unsupported encoding.');
  if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500) return new HttpError(e.status, e.message ?? 'Bad request.');
  return err;
}

export function notFoundHandler(_req: Request, res: Response, next: NextFunction): void {
  // No route answered, whichever matched and passed it on (the old-path redirects match every path).
  labelRoute(res, UNMATCHED);
  next(new NotFoundError());
}

export function errorHandler(logger: Logger) {
  // Express recognises error middleware by its four parameters.
  return function handleError(rawErr: unknown, req: Request, res: Response, _next: NextFunction): void {
    const refusedInput = databaseInputError(rawErr);
    if (refusedInput) logger.warn({ err: rawErr, url: req.originalUrl }, 'database refused a value from the request: validate it where it is read');
    const err = refusedInput ?? normalise(rawErr);
    const status = err instanceof HttpError ? err.status : 500;
    if (status === 503) logger.warn({ err: rawErr, url: req.originalUrl }, 'request answered 503: database unavailable');
    else if (status === 507) logger.error({ err: rawErr, url: req.originalUrl }, STORAGE_FULL_LOG);
    else if (status >= 500) logger.error({ err: rawErr, url: req.originalUrl }, 'request failed');
    if (res.headersSent) {
      res.end();
      return;
    }
    res.status(status);
    if (status === 429 && err instanceof HttpError) res.set('Retry-After', res.get('Retry-After') ?? '60');
    if (status === 503) res.set({ 'Retry-After': String(ServiceUnavailableError.RETRY_AFTER_SECONDS), 'Cache-Control': 'no-store' });
    if (status === 507) res.set('Cache-Control', 'no-store');
    if (isApiRequest(req)) {
      res.set('Cache-Control', 'no-store');
      res.json(err instanceof HttpError ? err.toJSON() : { detail: 'A server error occurred.' });
      return;
    }
    // A 507's message is written for the person who uploaded (see InsufficientStorageError).
    const readable = err instanceof HttpError && (status < 500 || status === 507);
    const template = status === 404 ? 'errors/404.njk' : status === 503 ? 'errors/503.njk' : readable ? 'errors/error.njk' : 'errors/500.njk';
    res.render(template, {
      status,
      message: readable ? err.message : 'Something went wrong on our side.',
      pageTitle: status === 404 ? 'Page not found' : status === 503 ? 'Back in a moment' : 'Error',
    }, (renderErr: Error | null, html?: string) => {
      if (renderErr) {
        logger.error({ err: renderErr }, 'error page failed to render');
        res.type('text/plain').send(status === 404 ? 'Not found' : status === 503 ? 'Service unavailable' : 'Server error');
        return;
      }
      res.type('html').send(html);
    });
  };
}
