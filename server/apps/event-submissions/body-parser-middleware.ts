import busboy from 'busboy';
import type { NextFunction, Request, Response } from 'express';
import { CSRF_FIELD, csrfTokenExpectedInFirstField, sameToken } from '../../http/csrf';
import { HttpError, PayloadTooLargeError, PermissionDeniedError } from '../../http/errors';
import { multipartParseError } from '../../http/multipart-errors';
import { uploadBodySlot } from '../media/image-work';

/** An event image attached to the form itself (the no-JavaScript path) may be this large. */
export const EVENT_FORM_MAX_IMAGE_BYTES = 10 * 1024 * 1024;
/** The form's file field (the island uploads through /streams/image-upload/ instead). */
export const EVENT_FORM_FILE_FIELD = 'thumbnail';

const LIMITS = { fileSize: EVENT_FORM_MAX_IMAGE_BYTES, files: 1, fields: 300, parts: 301, fieldSize: 64 * 1024 };

export const messages = {
  csrfMissing: `CSRF Failed: CSRF token missing (it must be the form's first field, ${CSRF_FIELD}).`,
  csrfIncorrect: 'CSRF Failed: CSRF token incorrect.',
  unexpectedFile: (field: string) => `Unexpected upload in field "${field}".`,
  tooManyParts: 'Unexpected upload: too many fields or files.',
};

/**
 * Until the body has been read, any answer closes the connection: a refused post (a guest, a
 * bad token, events switched off) is answered at once, and the rest of its body is never parsed
 * (http/lingering-close.ts discards it, within bounds, so the client receives the answer).
 */
export function closeUnlessBodyRead(req: Request, res: Response, next: NextFunction): void {
  if (req.is('multipart/form-data')) res.set('Connection', 'close');
  next();
}

/**
 * Reads the add-event form's multipart body as it streams in: text fields into req.body
 * (repeated names such as weekly-weekdays become arrays), an optional image in the `thumbnail`
 * field into req.file. Mounted after the member check, so a guest's body is never read. A form
 * posted without JavaScript carries its CSRF token as the first field (the form prints it
 * first and browsers send fields in order): that field is checked before anything else is
 * read, and any other first part is refused 403 at once. Every part is bounded, and a body
 * waits for an upload slot, so posts hold at most a few images' worth of memory.
 */
export const eventFormBody = [uploadBodySlot, readEventForm];

function readEventForm(req: Request, res: Response, next: NextFunction): void {
  if (!req.is('multipart/form-data')) return next();
  const expectedToken = csrfTokenExpectedInFirstField(req);
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: req.headers, limits: { ...LIMITS, fileSize: LIMITS.fileSize + 1, fieldSize: LIMITS.fieldSize + 1 } });
  } catch (err) {
    return next(multipartParseError((err as Error).message));
  }
  const body: Record<string, unknown> = Object.create(null);
  let file: Express.Multer.File | undefined;
  let filePending = false;
  let closed = false;
  let parts = 0;
  let finished = false;

  const finish = (err?: HttpError) => {
    if (finished) return;
    finished = true;
    req.unpipe(parser);
    parser.removeAllListeners();
    // A late error from the abandoned parser must not crash the process.
    parser.on('error', () => {});
    if (err) return next(err);
    res.removeHeader('Connection');
    req.body = body;
    req.file = file;
    next();
  };
  const maybeDone = () => {
    if (!closed || filePending) return;
    if (expectedToken !== undefined && parts === 0) return finish(new PermissionDeniedError(messages.csrfMissing));
    finish();
  };
  /** The first part must be the token when the header did not carry one. */
  const firstPartRefused = (name: string, value: string | null): boolean => {
    parts += 1;
    if (parts > 1 || expectedToken === undefined) return false;
    if (name !== CSRF_FIELD || value === null) finish(new PermissionDeniedError(messages.csrfMissing));
    else if (!sameToken(value, expectedToken)) finish(new PermissionDeniedError(messages.csrfIncorrect));
    else return false;
    return true;
  };

  parser.on('field', (name, value, info) => {
    if (firstPartRefused(name, value)) return;
    if (info.valueTruncated) return finish(new PayloadTooLargeError());
    const existing = body[name];
    body[name] = existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value];
  });
  parser.on('file', (name, stream, info) => {
    if (firstPartRefused(name, null)) return void stream.resume();
    // CASE: a file input left empty is sent as a part with no file name; it is no upload.
    if (!info.filename) return void stream.resume();
    if (name !== EVENT_FORM_FILE_FIELD) {
      stream.resume();
      return finish(new HttpError(400, messages.unexpectedFile(name)));
    }
    filePending = true;
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
    });
    stream.on('limit', () => finish(new PayloadTooLargeError()));
    stream.on('error', (err) => finish(multipartParseError(err.message)));
    stream.on('end', () => {
      filePending = false;
      if (finished) return;
      const buffer = Buffer.concat(chunks, size);
      file = { fieldname: name, originalname: info.filename, encoding: info.encoding, mimetype: info.mimeType, buffer, size } as Express.Multer.File;
      maybeDone();
    });
  });
  parser.on('partsLimit', () => finish(new HttpError(400, messages.tooManyParts)));
  parser.on('filesLimit', () => finish(new HttpError(400, messages.tooManyParts)));
  parser.on('fieldsLimit', () => finish(new HttpError(400, messages.tooManyParts)));
  parser.on('error', (err: Error) => finish(multipartParseError(err.message)));
  parser.on('close', () => {
    closed = true;
    maybeDone();
  });
  req.on('close', () => {
    if (!req.readableEnded) finish(multipartParseError('Request closed'));
  });
  req.pipe(parser);
}
