import { z } from 'zod';
import { DEFAULT_IMAGE_QUALITY, IMAGE_SIZES, type ImageSizeName } from '../../../shared/constants';
import { findImageSize } from '../../../shared/format/image-url';
import { ValidationError } from '../../http/errors';

// What a rendition may ask for: one of IMAGE_SIZES (the sizes the pages use) at the default
// quality. Anything else is a 400, never a resize and never a file: otherwise anyone could
// burn CPU and fill the disk with one rendition per distinct width. A 400 rather than a
// redirect to the nearest size, because our own pages only print allowed sizes, and a
// redirect would still let a crawler of odd sizes cost us a request each.

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

export const messages = {
  size: `Not an available image size. Sizes: ${Object.values(IMAGE_SIZES)
    .map((s) => `w=${s.w}${s.h ? `&h=${s.h}` : ''}&cmd=${s.cmd}`)
    .join(', ')}.`,
  quality: `Only the default quality (${DEFAULT_IMAGE_QUALITY}) is served.`,
};

/** Refuses (400) a rendition that is not one of IMAGE_SIZES at the default quality. */
export function assertServedRendition(p: RenditionParams): void {
  if (p.quality !== DEFAULT_IMAGE_QUALITY) throw ValidationError.field('quality', messages.quality);
  if (!findImageSize(p.w, p.h, p.cmd)) throw ValidationError.nonField(messages.size);
}

/** The rendition of one of IMAGE_SIZES (what the URL builders print for that name). */
export function renditionParamsFor(size: ImageSizeName): RenditionParams {
  const s = IMAGE_SIZES[size];
  return { w: s.w, h: s.h, cmd: s.cmd, quality: DEFAULT_IMAGE_QUALITY };
}

/** A file name that is the same for the same request, whatever order the query came in. */
export function renditionName(p: RenditionParams): string {
  return `${p.w ?? 0}x${p.h ?? 0}-${p.cmd}-q${p.quality}`;
}
