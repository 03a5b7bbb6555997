import { z } from 'zod';
import { slugify } from '../../../shared/format/text';
import { youtubeIdOf } from './youtube';

// What the staff video form (/staff/videos/save/) sends besides its image file; its
// csrfmiddlewaretoken is checked before it is read (checkFirstFieldToken).

export const TITLE_MAX = 255;
export const SLUG_MAX = 80;
export const DESCRIPTION_MAX = 5000;

const required = (message: string) => z.string({ message }).trim().min(1, message);
const optionalText = z.string({ message: 'Not a valid string.' }).trim().optional().transform((v) => v ?? '');

/** A new video (no id) or changes to one. The slug is made from the title when left empty. */
export const videoFormSchema = z
  .object({
    id: z.string().regex(/^\d{1,9}$/, 'Not a valid video.').transform(Number).optional().or(z.literal('').transform(() => undefined)),
    youtube: required('Give the video\'s YouTube id or address.').transform((v, ctx) => {
      const id = youtubeIdOf(v);
      if (!id) {
        ctx.addIssue({ code: 'custom', message: 'Not a YouTube video: give its 11-character id or its address (youtube.com/watch?v=… or youtu.be/…).' });
        return z.NEVER;
      }
      return id;
    }),
    title: required('Give the video a title.').pipe(z.string().max(TITLE_MAX, `Ensure this field has no more than ${TITLE_MAX} characters.`)),
    slug: optionalText.transform((v) => v.toLowerCase()),
    description: optionalText.pipe(z.string().max(DESCRIPTION_MAX, `Ensure this field has no more than ${DESCRIPTION_MAX} characters.`)),
    category: required('Choose a category.').pipe(z.string().regex(/^\d{1,9}$/, 'Choose a category.').transform(Number)),
    /** 'youtube': take YouTube's still (where the operator allows it); otherwise the uploaded file, or the current image. */
    image_source: z.enum(['upload', 'youtube']).optional().or(z.literal('').transform(() => undefined)),
  })
  .transform((v, ctx) => {
    const slug = v.slug || slugify(v.title);
    if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(slug) || slug.length > SLUG_MAX) {
      ctx.addIssue({ code: 'custom', path: ['slug'], message: `Use lower-case letters, digits and hyphens (at most ${SLUG_MAX}).` });
      return z.NEVER;
    }
    return { ...v, slug };
  });

export type VideoForm = z.output<typeof videoFormSchema>;
