import { HttpError, PayloadTooLargeError } from './errors';

// What a broken multipart body turns into: busboy (under multer and the add-event form's own
// parser) reports a body it cannot read with plain Errors and these messages, and multer adds
// MulterError codes. Each is the client's fault, so each is a 400 (or 413) naming the problem,
// as DRF's ParseError does ("Multipart form parse error - …"), never a 500.

const BUSBOY_MESSAGES = [
  'Malformed content type',
  'Missing Content-Type',
  'Unsupported content type',
  'Multipart: Boundary not found',
  'Malformed part header',
  'Unexpected end of form',
  'Unexpected end of file',
  'Malformed urlencoded form',
  // The client stopped sending mid-body: nobody reads the answer, but it is not our error.
  'Request aborted',
  'Request closed',
];

const TOO_LARGE_CODES = new Set(['LIMIT_FILE_SIZE', 'LIMIT_FIELD_VALUE']);
const UNEXPECTED_UPLOAD_CODES = new Set(['LIMIT_UNEXPECTED_FILE', 'LIMIT_FILE_COUNT', 'LIMIT_PART_COUNT', 'LIMIT_FIELD_COUNT']);

export function multipartParseError(message: string): HttpError {
  return new HttpError(400, `Multipart form parse error - ${message.replace(/\.?$/, '.')}`);
}

/** The HTTP error for a multipart parsing failure; null when `err` is not one. */
export function multipartHttpError(err: unknown): HttpError | null {
  if (!(err instanceof Error)) return null;
  const e = err as Error & { code?: string; field?: string };
  if (e.name === 'MulterError' && e.code) {
    if (TOO_LARGE_CODES.has(e.code)) return new PayloadTooLargeError();
    if (UNEXPECTED_UPLOAD_CODES.has(e.code)) return new HttpError(400, `Unexpected upload${e.field ? ` in field "${e.field}"` : ''}.`);
    // MISSING_FIELD_NAME, LIMIT_FIELD_KEY, INVALID_FIELD_NAME, LIMIT_FIELD_NESTING, …
    return multipartParseError(`${e.message}${e.field ? ` (field "${e.field}")` : ''}`);
  }
  if (BUSBOY_MESSAGES.some((m) => e.message.startsWith(m))) return multipartParseError(e.message);
  return null;
}
