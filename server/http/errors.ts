// One error class per HTTP meaning, thrown from services and rendered in one place
// (error-handler.ts) as the DRF shapes of DESIGN.md for /api/ and as a page elsewhere.

export class HttpError extends Error {
  constructor(
    public readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
  /** The JSON body for the API. */
  toJSON(): Record<string, unknown> {
    return { detail: this.message };
  }
}

export type FieldErrors = Record<string, string[]>;

/** 400 with messages per field: {"field": ["message"], "non_field_errors": ["message"]}. */
export class ValidationError extends HttpError {
  constructor(public readonly fields: FieldErrors) {
    super(400, Object.entries(fields).map(([k, v]) => `${k}: ${v.join(' ')}`).join('; ') || 'Invalid input.');
  }
  static field(field: string, message: string): ValidationError {
    return new ValidationError({ [field]: [message] });
  }
  static nonField(message: string): ValidationError {
    return new ValidationError({ non_field_errors: [message] });
  }
  override toJSON(): Record<string, unknown> {
    return this.fields;
  }
}

export class NotAuthenticatedError extends HttpError {
  constructor(message = 'Authentication credentials were not provided.') {
    super(401, message);
  }
}

export class PermissionDeniedError extends HttpError {
  constructor(message = 'You do not have permission to perform this action.') {
    super(403, message);
  }
}

/** Also answered for another member's objects, so that ids leak nothing. */
export class NotFoundError extends HttpError {
  constructor(message = 'Not found.') {
    super(404, message);
  }
}

export class MethodNotAllowedError extends HttpError {
  constructor(method: string) {
    super(405, `Method "${method}" not allowed.`);
  }
}

export class PayloadTooLargeError extends HttpError {
  constructor(message = 'Request entity too large.') {
    super(413, message);
  }
}

export class UnsupportedMediaTypeError extends HttpError {
  constructor(message = 'Unsupported media type in request.') {
    super(415, message);
  }
}

export class RateLimitedError extends HttpError {
  constructor(message = 'Request was throttled. Expected available in a while.') {
    super(429, message);
  }
}

/** 503 with Retry-After: the database (or the session store on it) is away for a moment. */
export class ServiceUnavailableError extends HttpError {
  /** Seconds a client should wait before trying again. */
  static readonly RETRY_AFTER_SECONDS = 5;
  constructor(message = 'Service temporarily unavailable, try again in a few seconds.', options?: { cause?: unknown }) {
    super(503, message);
    if (options && 'cause' in options) this.cause = options.cause;
  }
}

/**
 * 507: the server had no room to store an upload (the media disk or its quota is full). Nothing
 * was kept, and the same upload works once an operator frees space, so the message says so.
 */
export class InsufficientStorageError extends HttpError {
  static readonly MESSAGE = 'Our server is out of storage space right now, so your file was not saved. Please try again later.';
  constructor(message = InsufficientStorageError.MESSAGE, options?: { cause?: unknown }) {
    super(507, message);
    if (options && 'cause' in options) this.cause = options.cause;
  }
}
