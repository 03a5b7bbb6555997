import { z } from 'zod';
import { DEFAULT_IMAGE_QUALITY } from '../../../shared/constants';

// What a rendition may ask for. The bounds are what keeps the image endpoint from being used
// to burn CPU or fill the disk: sizes up to 2000 px, quality 30–95, two commands. Anything
// else is a 400, never a resize.

export const MAX_RENDITION_SIDE = 2000;
export const MIN_QUALITY = 30;
export const MAX_QUALITY = 95;

const side = z
  .string()
  .regex(/^\d{1,4}$/, 'A valid integer is required.')
  .transform(Number)
  .refine((n) => n >= 1 && n <= MAX_RENDITION_SIDE, `Ensure this value is between 1 and ${MAX_RENDITION_SIDE}.`);

export const renditionQuerySchema = z.object({
  w: side.optional(),
  h: side.optional(),
  cmd: z.enum(['crop', 'fit'], { message: 'Must be "crop" or "fit".' }).optional(),
  quality: z
    .string()
    .regex(/^\d{1,3}$/, 'A valid integer is required.')
    .transform(Number)
    .refine((n) => n >= MIN_QUALITY && n <= MAX_QUALITY, `Ensure this value is between ${MIN_QUALITY} and ${MAX_QUALITY}.`)
    .optional(),
});

export interface RenditionParams {
  w: number | null;
  h: number | null;
  cmd: 'crop' | 'fit';
  quality: number;
}

/** Null when the query asks for the original as stored (no size, no quality). */
export function toRenditionParams(q: z.output<typeof renditionQuerySchema>): RenditionParams | null {
  if (q.w === undefined && q.h === undefined && q.quality === undefined) return null;
  return { w: q.w ?? null, h: q.h ?? null, cmd: q.cmd ?? 'crop', quality: q.quality ?? DEFAULT_IMAGE_QUALITY };
}

/** A file name that is the same for the same request, whatever order the query came in. */
export function renditionName(p: RenditionParams): string {
  return `${p.w ?? 0}x${p.h ?? 0}-${p.cmd}-q${p.quality}`;
}
