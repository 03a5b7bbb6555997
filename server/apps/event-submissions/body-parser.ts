import multer from 'multer';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { AppContext } from '../../context';

/** An event image attached to the form itself (the no-JavaScript path) may be this large. */
export const EVENT_FORM_MAX_IMAGE_BYTES = 10 * 1024 * 1024;

/**
 * Parses the add-event form's multipart body: text fields into req.body (repeated names such
 * as weekly-weekdays become arrays), an optional image file in the `thumbnail` field into
 * req.file. It must run before the CSRF check, which reads csrfmiddlewaretoken from req.body.
 * Every part is bounded, so an anonymous post costs at most one image's worth of memory.
 */
export function eventSubmissionBodyParser(_ctx: AppContext): RequestHandler {
  const parse = multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: EVENT_FORM_MAX_IMAGE_BYTES, files: 1, fields: 300, parts: 301, fieldSize: 64 * 1024 },
  }).single('thumbnail');
  return (req: Request, res: Response, next: NextFunction) => {
    if (!req.is('multipart/form-data')) return next();
    parse(req, res, next);
  };
}
