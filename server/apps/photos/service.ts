import type { AppContext } from '../../context';
import { NotFoundError, ValidationError } from '../../http/errors';
import type { PageParams } from '../../http/pagination';
import { newKey } from '../../storage/storage';
import type { PhotoDTO } from '../../../shared/dto';
import { normaliseImage, NotAnImageError, readImageHeader } from '../media/ingest';
import { decodeBase64Jpeg as decodeJpegField, type DecodedBase64 } from '../media/base64-jpeg';
import { purgeRenditions, renditionStore } from '../media/renditions';
import type { RenditionParams } from '../media/rendition-params';
import { queueRenditionWarmUp, renditionSet } from '../media/warm-renditions-job';
import { toPhotoDTO } from './serialize';
import { photoChange, photoPlaceOfRow } from './photo-change';
import * as queries from './queries';
import type { PhotoFilter } from './queries';
import type { PhotoListQuery, PhotoUploadInput } from './schemas';

export const messages = {
  tooLargeOrNotJpeg: (mb: number) => `We can only accept JPG photos that are ${mb}mb or less. Please try again with a different image.`,
  notAnImage: 'Upload a valid image. The file you uploaded was either not an image or a corrupted image.',
  listingMissing: (id: number) => `Invalid pk "${id}" - object does not exist.`,
};

/** Stored photos are at most this many pixels on their longer side; renditions come from them. */
export const STORED_PHOTO_MAX_SIDE = 3000;
export const STORED_PHOTO_QUALITY = 88;

/** Made by a job queued at upload: the photo grid (340 square), the listing card (610 square), the viewer (720 box). */
export const PHOTO_RENDITIONS: RenditionParams[] = renditionSet('photo');

/** The upload's bytes: a JPEG of at most maxMb, by its declared type and its length. */
export function decodeBase64Jpeg(image: string | DecodedBase64, maxMb: number): Buffer {
  return decodeJpegField(image, {
    field: 'image',
    maxBytes: Math.floor(maxMb * 1024 * 1024),
    tooLargeOrNotJpeg: messages.tooLargeOrNotJpeg(maxMb),
    notAnImage: messages.notAnImage,
  });
}

/**
 * Deletes a photo's stored file and its rendered sizes, once its row is gone (the owner's
 * delete here, a staff removal in the staff area).
 */
export async function purgePhotoFiles(ctx: Pick<AppContext, 'storage' | 'config'>, key: string): Promise<void> {
  await Promise.all([ctx.storage.delete(key), purgeRenditions(renditionStore(ctx), key)]);
}

export function createPhotosService(ctx: Pick<AppContext, 'db' | 'storage' | 'config' | 'logger' | 'now' | 'changes' | 'jobs'>) {
  const { db, storage, config } = ctx;
  const dto = (row: Parameters<typeof toPhotoDTO>[0]) => toPhotoDTO(row, config.site.url);

  return {
    async list(filter: PhotoFilter, ordering: PhotoListQuery['ordering'], page: PageParams): Promise<{ count: number; results: PhotoDTO[] }> {
      const [count, rows] = await Promise.all([queries.countPhotos(db, filter), queries.listPhotos(db, filter, ordering, page)]);
      return { count, results: rows.map(dto) };
    },

    async upload(memberId: number, input: PhotoUploadInput): Promise<PhotoDTO> {
      const maxMb = config.limits.photoUploadMaxMb;
      const bytes = decodeBase64Jpeg(input.image, maxMb);
      const asNotAnImage = (err: unknown) => (err instanceof NotAnImageError ? ValidationError.field('image', messages.notAnImage) : err);
      const header = await readImageHeader(bytes).catch((err) => Promise.reject(asNotAnImage(err)));
      // CASE: JPEG magic bytes but another format inside (or a renamed file sharp reads as one).
      if (header.format !== 'jpeg') throw ValidationError.field('image', messages.tooLargeOrNotJpeg(maxMb));
      if (!(await queries.listingExists(db, input.listing))) throw ValidationError.field('listing', messages.listingMissing(input.listing));
      // Decoding it all happens here, once: a corrupt or truncated file fails now.
      const stored = await normaliseImage(bytes, { maxSide: STORED_PHOTO_MAX_SIDE, quality: STORED_PHOTO_QUALITY }).catch((err) => Promise.reject(asNotAnImage(err)));
      const key = newKey('photos', stored.extension);
      await storage.put(key, stored.data, 'image/jpeg');
      let id: number;
      try {
        id = await queries.insertPhoto(db, {
          profile_id: memberId,
          listing_id: input.listing,
          title: input.title,
          description: input.description,
          image_key: key,
          width: stored.width,
          height: stored.height,
          creation_date: ctx.now(),
        });
      } catch (err) {
        // Nothing half-saved: the file goes if its row could not be written.
        await storage.delete(key);
        throw err;
      }
      // Off the request: the sizes are made by a job (or else on first request).
      await queueRenditionWarmUp(ctx, key, 'photo');
      const row = await queries.findPhoto(db, id);
      if (!row) throw new NotFoundError();
      // Its place comes with the row the answer needs anyway: no query of its own.
      await ctx.changes.announce(photoChange(id, photoPlaceOfRow(row)));
      return dto(row);
    },

    /** Only the owner can delete; anyone else gets the same 404 as for a photo that is not there. */
    async remove(memberId: number, id: number): Promise<void> {
      const place = await queries.photoPlace(db, id);
      const key = await queries.deleteOwnPhoto(db, id, memberId);
      if (!key) throw new NotFoundError();
      await ctx.changes.announce(photoChange(id, place));
      await purgePhotoFiles(ctx, key);
    },
  };
}

export type PhotosService = ReturnType<typeof createPhotosService>;
