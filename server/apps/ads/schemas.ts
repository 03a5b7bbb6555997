import { z } from 'zod';
import { AD_SLOT_NAMES, type AdSlotName } from '../../../shared/ads';

// What the staff ad form and the ad endpoints accept. The staff form also carries
// csrfmiddlewaretoken, checked before it is read (form-body.ts).

export const NAME_MAX = 100;
export const LINK_MAX = 500;
export const ALT_MAX = 150;
export const WEIGHT_MAX = 100;

const slot = z
  .string({ message: 'This field is required.' })
  .pipe(z.enum(AD_SLOT_NAMES as [AdSlotName, ...AdSlotName[]], { message: `Choose one of: ${AD_SLOT_NAMES.join(', ')}.` }));
const text = (max: number) =>
  z
    .string({ message: 'This field is required.' })
    .trim()
    .min(1, 'This field is required.')
    .max(max, `Ensure this field has no more than ${max} characters.`);
const isoDay = z
  .string({ message: 'This field is required.' })
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Enter a valid date (YYYY-MM-DD).')
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), 'Enter a valid date (YYYY-MM-DD).');

/** POST /staff/ads/save/: a new ad (no id) or changes to one; the image file comes beside it. */
export const houseAdFormSchema = z
  .object({
    id: z.string().regex(/^\d{1,9}$/, 'Not a valid ad.').transform(Number).optional().or(z.literal('').transform(() => undefined)),
    name: text(NAME_MAX),
    slot,
    link_url: text(LINK_MAX).refine((u) => /^https?:\/\/[^\s]+$/i.test(u) && URL.canParse(u), 'Enter a valid URL (http:// or https://).'),
    alt_text: text(ALT_MAX),
    starts_on: isoDay,
    ends_on: isoDay.optional().or(z.literal('').transform(() => undefined)),
    weight: z
      .string({ message: 'This field is required.' })
      .trim()
      .regex(/^\d{1,3}$/, 'A valid integer is required.')
      .transform(Number)
      .refine((n) => n >= 1 && n <= WEIGHT_MAX, `Ensure this value is between 1 and ${WEIGHT_MAX}.`),
  })
  .superRefine((v, ctx) => {
    if (v.ends_on && v.ends_on < v.starts_on) ctx.addIssue({ code: 'custom', path: ['ends_on'], message: 'The end date must be on or after the start date.' });
  });
export type HouseAdForm = z.output<typeof houseAdFormSchema>;

/** GET /api/ads/serve/?slot= */
export const serveQuerySchema = z.object({ slot });
