import { Router, type NextFunction, type Request, type Response } from 'express';
import type { AppContext } from '../../context';
import { requireMember, memberId } from '../../http/auth-guards';
import { NotFoundError } from '../../http/errors';
import { pageParams, paginated } from '../../http/pagination';
import { idParam, validate } from '../../http/validate';
import { PAGE_SIZE } from '../../../shared/constants';
import type { PhotosService } from './service';
import { photoListQuerySchema, photoPageSize, photoUploadSchema } from './schemas';
import { sharedWithGuests } from '../../http/api-cache-headers';
import { addSharedSurrogateKeys, surrogateKeys } from '../../http/surrogate-keys';
import { uploadBodySlot } from '../media/image-work';
import { jsonBase64Body } from '../media/json-base64-body-middleware';
import type { RequestRules } from '../../http/request-rules';

/**
 * The upload's JSON body (base64, ~8.4 MB for 6 MB of JPEG) is more than the core's 1 MB: its
 * route reads it itself (photoBody below), after the session and CSRF checks and once an upload
 * slot is free, so a guest cannot make the server hold one. The core's parser leaves it alone.
 */
export const photosRequestRules: Partial<RequestRules> = { readsOwnBody: ['POST /api/v2/photos/'] };

// ## Photos (spec 1 §7). The JSON body of a POST may be ~8.4 MB of base64 for a 6 MB JPEG: it is
// read here (photosRequestRules: app.ts leaves it alone), only for a member, and only once an
// upload slot is free; its image is decoded as it arrives, so a body holds its photo's bytes and
// no copy of the text.
export function photosApi(ctx: AppContext, photos: PhotosService): Router {
  const router = Router();
  const maxMb = ctx.config.limits.photoUploadMaxMb;
  const photoBody = jsonBase64Body({ field: 'image', maxBytes: Math.floor(maxMb * 1024 * 1024), limitBytes: (Math.ceil(maxMb * 1.4) + 1) * 1024 * 1024 });
  const uploadsEnabled = (_req: Request, _res: Response, next: NextFunction) =>
    next(ctx.config.flags.photoUpload && ctx.config.flags.listings ? undefined : new NotFoundError());

  router.get('/api/v2/photos/', sharedWithGuests, async (req, res) => {
    const query = validate(photoListQuerySchema, req.query);
    const page = pageParams(req, photoPageSize(query));
    const { count, results } = await photos.list({ listingId: query.listing }, query.ordering, page);
    // Every photo's change announces `photos`; a place's name shown with its photos, the place's key.
    addSharedSurrogateKeys(res, query.listing === undefined ? [surrogateKeys.photos] : [surrogateKeys.photos, surrogateKeys.place(query.listing)]);
    res.json(paginated(req, page, count, results));
  });

  router.get('/api/v2/photos/me/', requireMember, async (req, res) => {
    const query = validate(photoListQuerySchema, req.query);
    const page = pageParams(req, PAGE_SIZE.photos);
    const { count, results } = await photos.list({ profileId: memberId(req), listingId: query.listing }, query.ordering, page);
    res.json(paginated(req, page, count, results));
  });

  router.post('/api/v2/photos/', requireMember, uploadsEnabled, uploadBodySlot, photoBody, async (req, res) => {
    res.status(201).json(await photos.upload(memberId(req), validate(photoUploadSchema, req.body)));
  });

  router.delete('/api/v2/photos/:id/', requireMember, async (req, res) => {
    await photos.remove(memberId(req), idParam(req.params.id));
    res.status(204).end();
  });

  return router;
}
