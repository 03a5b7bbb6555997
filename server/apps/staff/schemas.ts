import { z } from 'zod';
import { attributeField } from '../accessibility/schemas';

// What the staff area's forms send. Every form also carries csrfmiddlewaretoken, which the
// CSRF middleware checks before any of these is read.

export const NOTE_MAX = 2000;

const note = z
  .string({ message: 'Not a valid string.' })
  .trim()
  .max(NOTE_MAX, `Ensure this field has no more than ${NOTE_MAX} characters.`)
  .optional()
  .transform((v) => v ?? '');

/** The most events one bulk decision takes (the queue is short; this bounds a hostile form). */
export const BULK_MAX = 100;

const decision = z.enum(['approved', 'rejected'], { message: 'Choose approve or reject.' });

// The member is told why: a rejection without a reason helps nobody.
const rejectionNeedsNote = (v: { decision: string; note: string }, ctx: z.RefinementCtx) => {
  if (v.decision === 'rejected' && !v.note) ctx.addIssue({ code: 'custom', path: ['note'], message: 'Say why the event is rejected: the member receives this note.' });
};

/** POST /staff/events/:id/moderate/: the button pressed, and the note for the member. */
export const moderationFormSchema = z.object({ decision, note }).superRefine(rejectionNeedsNote);
export type ModerationForm = z.infer<typeof moderationFormSchema>;

const selectOne = 'Select at least one event.';
const eventId = z.string({ message: selectOne }).regex(/^\d{1,9}$/, 'Not a valid event.').transform(Number);

/**
 * POST /staff/events/bulk/: the ticked events (checkboxes outside the form, joined to it by
 * their form attribute: one repeated `ids` field), the button pressed and one note for all.
 */
export const bulkModerationFormSchema = z
  .object({
    ids: z
      .union([eventId.transform((id) => [id]), z.array(eventId, { message: selectOne }).min(1, selectOne).max(BULK_MAX, `Select at most ${BULK_MAX} events.`)], { message: selectOne }),
    decision,
    note,
  })
  .superRefine(rejectionNeedsNote);

export const PHOTO_REMOVAL_UNCONFIRMED = 'Tick "Delete it for good" to remove the photo: it cannot be undone.';

/** POST /staff/photos/:id/remove/: the tick that says it is meant, and an optional reason for the audit log. */
export const photoRemovalFormSchema = z.object({
  confirm: z.literal('yes', { message: PHOTO_REMOVAL_UNCONFIRMED }),
  note,
});

/** The notice shown after a redirect: /staff/events/?done=approved&event=12 (&count=3 for several). */
export const queueNoticeSchema = z.object({
  done: z.enum(['approved', 'rejected']),
  event: z.string().regex(/^\d{1,9}$/).transform(Number),
  count: z.string().regex(/^\d{1,3}$/).transform(Number).optional(),
  mail: z.enum(['sent', 'failed', 'none']).optional(),
});

/** POST /staff/accessibility/decide/: the place, the attribute and the button pressed. */
export const accessibilityDecisionSchema = z.object({
  listing: z.string({ message: 'This field is required.' }).regex(/^\d{1,9}$/, 'Not a valid place.').transform(Number),
  attribute: attributeField,
  decision: z.enum(['yes', 'no', 'clear', 'dismiss'], { message: 'Choose verified yes, verified no, clear or dismiss.' }),
  note,
});
