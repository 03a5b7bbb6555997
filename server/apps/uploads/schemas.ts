import { z } from 'zod';
import { LIMITS } from '../../../shared/constants';

const boxSide = (fallback: number) =>
  z
    .string()
    .regex(/^\d{1,4}$/, 'A valid integer is required.')
    .transform(Number)
    .refine((n) => n >= 1 && n <= 2000, 'Ensure this value is between 1 and 2000.')
    .optional()
    .transform((n) => n ?? fallback);

/** The form fields that come with the file (spec 1 §7: box 300x200, aspect-fill). */
export const imageUploadFieldsSchema = z.object({
  box_width: boxSide(LIMITS.eventImageBoxWidth),
  box_height: boxSide(LIMITS.eventImageBoxHeight),
  cropping_mode: z.enum(['aspect-fill', 'aspect-fit'], { message: 'Must be "aspect-fill" or "aspect-fit".' }).optional().transform((m) => m ?? 'aspect-fill'),
});
export type ImageUploadFields = z.output<typeof imageUploadFieldsSchema>;

/** The extensions the uploader offers (spec 1 §5: jpg, png, gif, bmp, tif), and their kin. */
export const IMAGE_EXTENSIONS = ['jpg', 'jpeg', 'png', 'gif', 'bmp', 'tif', 'tiff', 'webp'] as const;
