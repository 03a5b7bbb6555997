import { z } from 'zod';
import { isDbId } from '../../http/validate';
import { slugify } from '../../../shared/format/text';

// What the staff forms of /staff/best-of/ send (each also carries csrfmiddlewaretoken, checked
// before any of these is read). Every edit needs a reason: readers see it in the change log.

export const REASON_MAX = 500;
export const CRITERIA_MAX = 4000;
export const BLURB_MAX = 2000;

const text = (message: string) => z.string({ message });

const reason = text('Say why: readers see this reason in the change log.')
  .trim()
  .min(1, 'Say why: readers see this reason in the change log.')
  .max(REASON_MAX, `Ensure this field has no more than ${REASON_MAX} characters.`);

const UNKNOWN_PLACE = 'Give the place\'s number or its page\'s address (e.g. /restaurants/pizza-libretto-123/).';

/** A place, by its id or by its page's path or URL (which ends in -{id}/). */
const listing = text(UNKNOWN_PLACE)
  .trim()
  .transform((v, ctx) => {
    const id = /^\d+$/.test(v) ? v : /-(\d+)\/?(?:[?#].*)?$/.exec(v)?.[1];
    if (!id || !isDbId(id)) {
      ctx.addIssue({ code: 'custom', message: UNKNOWN_PLACE });
      return z.NEVER;
    }
    return Number(id);
  });

/** A calendar day in the past or today ('YYYY-MM-DD'); the route checks "not in the future" against its clock. */
const day = text('Give the day as YYYY-MM-DD.')
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Give the day as YYYY-MM-DD.')
  .refine((v) => {
    const d = new Date(`${v}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v && v >= '2000-01-01';
  }, 'Not a real day.');

/** POST /staff/best-of/{slug}/add/: the place, what the list says about it (optional), why. */
export const addPickSchema = z.object({
  listing,
  blurb: z.string({ message: 'Not a valid string.' }).trim().max(BLURB_MAX, `Ensure this field has no more than ${BLURB_MAX} characters.`).optional().transform((v) => v ?? ''),
  reason,
});

/** POST /staff/best-of/{slug}/remove/: the pick and why it goes. */
export const removePickSchema = z.object({ listing, reason });

/** POST /staff/best-of/{slug}/move/: the pick, one place up or down, and why. */
export const movePickSchema = z.object({
  listing,
  direction: z.enum(['up', 'down'], { message: 'Choose up or down.' }),
  reason,
});

/** POST /staff/best-of/{slug}/criteria/: how the editors choose, and why it changed. */
export const criteriaSchema = z.object({
  criteria: text('Write how the editors choose.').trim().min(1, 'Write how the editors choose.').max(CRITERIA_MAX, `Ensure this field has no more than ${CRITERIA_MAX} characters.`),
  reason,
});

/** POST /staff/best-of/{slug}/visited/: the pick, the day an editor was last there, and a note. */
export const visitedSchema = z.object({ listing, visited_on: day, reason });

export const TITLE_MAX = 255;
export const INTRO_MAX = 4000;
export const SLUG_MAX = 80;

/**
 * POST /staff/best-of/new/: a new list. The slug is its address (/best-of/{slug}/): made from
 * the title when left empty, and otherwise as typed, which must already be one.
 */
export const newListSchema = z
  .object({
    title: text('Give the list a title.').trim().min(1, 'Give the list a title.').max(TITLE_MAX, `Ensure this field has no more than ${TITLE_MAX} characters.`),
    slug: z.string({ message: 'Not a valid string.' }).trim().toLowerCase().optional().transform((v) => v ?? ''),
    intro: z.string({ message: 'Not a valid string.' }).trim().max(INTRO_MAX, `Ensure this field has no more than ${INTRO_MAX} characters.`).optional().transform((v) => v ?? ''),
    criteria: text('Write how the editors choose.').trim().min(1, 'Write how the editors choose.').max(CRITERIA_MAX, `Ensure this field has no more than ${CRITERIA_MAX} characters.`),
  })
  .transform((v, ctx) => {
    const slug = v.slug || slugify(v.title);
    if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(slug) || slug.length > SLUG_MAX) {
      ctx.addIssue({ code: 'custom', path: ['slug'], message: `Use lower-case letters, digits and hyphens (at most ${SLUG_MAX}), e.g. best-pizza.` });
      return z.NEVER;
    }
    return { ...v, slug };
  });

export type NewListForm = z.infer<typeof newListSchema>;
export type AddPickForm = z.infer<typeof addPickSchema>;
export type RemovePickForm = z.infer<typeof removePickSchema>;
export type MovePickForm = z.infer<typeof movePickSchema>;
export type CriteriaForm = z.infer<typeof criteriaSchema>;
export type VisitedForm = z.infer<typeof visitedSchema>;
