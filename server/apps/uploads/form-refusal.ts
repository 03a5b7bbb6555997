import type { Request } from 'express';
import type { AppContext } from '../../context';
import { InsufficientStorageError, ValidationError, type FieldErrors } from '../../http/errors';
import { STORAGE_FULL_LOG } from '../../http/error-handler';
import { isStorageFull } from '../../storage/storage-full';

// The staff forms that store an image through this pipeline (house ads, videos, contests)
// answer a failed save the same way, written once here: the form comes back with the message
// beside its field and what was typed, never the error page.

export interface FormRefusal {
  status: 400 | 507;
  errors: FieldErrors;
}

/**
 * The answer to a form save that threw `err`: the media storage full, a 507 with the message
 * beside the image field (logged as the error handler logs a 507); a ValidationError, a 400
 * naming its fields. Null for any other error, which the caller rethrows.
 */
export function uploadFormRefusal(ctx: Pick<AppContext, 'logger'>, req: Request, err: unknown, imageField: string): FormRefusal | null {
  if (isStorageFull(err)) {
    // CASE: the media disk is full: the image was not kept; the form says so beside it.
    ctx.logger.error({ err, url: req.originalUrl }, STORAGE_FULL_LOG);
    return { status: 507, errors: { [imageField]: [InsufficientStorageError.MESSAGE] } };
  }
  if (err instanceof ValidationError) return { status: 400, errors: err.fields };
  return null;
}
