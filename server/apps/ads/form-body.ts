import type { NextFunction, Request, Response } from 'express';
import { CSRF_FIELD, csrfTokenExpectedInFirstField, sameToken } from '../../http/csrf';
import { PermissionDeniedError } from '../../http/errors';
import { uploadBodySlot } from '../media/image-work';
import { imageUploadParser } from '../uploads/service';

// The staff ad form's body: multipart (its image goes through the upload pipeline), posted
// without JavaScript. The CSRF middleware cannot read a multipart token, so it leaves it to
// this route (pages.ts declares AD_FORM_PATH in adsRequestRules.multipartFirstField): the token
// field is compared here, after staffOnly and before the route does anything with the body. The
// body waits for an upload slot and is bounded by the upload parser's limits.

export const AD_FORM_PATH = '/staff/ads/save/';
/** The file input's name. */
export const AD_IMAGE_FIELD = 'image';

function checkFormToken(req: Request, _res: Response, next: NextFunction): void {
  const expected = csrfTokenExpectedInFirstField(req);
  if (expected === undefined) return next(); // the X-CSRFToken header or a urlencoded body was checked already
  const sent = (req.body as Record<string, unknown> | undefined)?.[CSRF_FIELD];
  if (typeof sent !== 'string' || !sent) return next(new PermissionDeniedError('CSRF Failed: CSRF token missing.'));
  if (!sameToken(sent, expected)) return next(new PermissionDeniedError('CSRF Failed: CSRF token incorrect.'));
  next();
}

export const adFormBody = [uploadBodySlot, imageUploadParser, checkFormToken];
