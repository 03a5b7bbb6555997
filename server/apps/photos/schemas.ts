import { z } from 'zod';
import { PAGE_SIZE } from '../../../shared/constants';
import { decodedImageField } from '../media/base64-jpeg';

const positiveId = z.union([
  z.number({ message: 'A valid integer is required.' }).int('A valid integer is required.').positive('A valid integer is required.').max(2_147_483_647, 'A valid integer is required.'),
  z.string().regex(/^\d{1,9}$/, 'A valid integer is required.').transform(Number).refine((n) => n > 0, 'A valid integer is required.'),
], { message: 'A valid integer is required.' });

/** POST /api/v2/photos/: the image arrives as base64 text, decoded by the body parser (photos/api.ts). */
export const photoUploadSchema = z.object({
  image: decodedImageField,
  title: z.string({ message: 'Not a valid string.' }).trim().max(255, 'Ensure this field has no more than 255 characters.').nullish().transform((v) => v ?? ''),
  description: z.string({ message: 'Not a valid string.' }).trim().max(5000, 'Ensure this field has no more than 5000 characters.').nullish().transform((v) => v ?? ''),
  listing: positiveId,
});
export type PhotoUploadInput = z.output<typeof photoUploadSchema>;

export const PHOTO_ORDERINGS = ['-creation_date', 'creation_date', '-id', 'id'] as const;

export const photoListQuerySchema = z.object({
  listing: z.string({ message: 'A valid integer is required.' }).regex(/^\d{1,9}$/, 'A valid integer is required.').transform(Number).optional(),
  ordering: z.enum(PHOTO_ORDERINGS, { message: `Ordering must be one of: ${PHOTO_ORDERINGS.join(', ')}.` }).optional(),
});
export type PhotoListQuery = z.output<typeof photoListQuerySchema>;

/** 24 photos a page on a listing's photo page, 15 elsewhere (spec 1 §9). */
export function photoPageSize(query: PhotoListQuery): number {
  return query.listing !== undefined ? PAGE_SIZE.listingPhotos : PAGE_SIZE.photos;
}
