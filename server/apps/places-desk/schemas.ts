import { z } from 'zod';
import { isDay } from '../../../shared/events-hub';
import { CLOSED_NOTE_MAX } from '../../../shared/place-closing';
import { hoursFromForm } from '../../../shared/place-hours-form';
import { normalisePhone, PLACE_ADDRESS_MAX, PLACE_NAME_MAX, PLACE_WEBSITE_MAX, type PlaceChanges } from '../../../shared/places-desk';
import type { AddressPolicy } from '../../http/outbound-address';
import { addFeedSchema } from '../calendar-feeds/schemas';
import { storyDocError, type StoryDoc } from '../../../shared/newsroom';
import { reviewDocFromText } from '../../../shared/place-review';
import { renderStoryDoc } from '../../../shared/story-render';

// --- closing a place (helper "closing") ---------------------------------------------------
// POST /staff/places/{id}/close/: the day it closed (a day ahead is allowed: it closes on that
// day) and an optional note, which readers see in the Best of lists' change logs.

export const closePlaceSchema = z.object({
  closed_on: z
    .string({ message: 'Give the day it closed, as YYYY-MM-DD.' })
    .trim()
    .min(1, 'Give the day it closed, as YYYY-MM-DD.')
    .refine((v) => isDay(v) && v >= '2000-01-01', 'Not a real day: give it as YYYY-MM-DD.'),
  note: z
    .string({ message: 'Not a valid string.' })
    .trim()
    .max(CLOSED_NOTE_MAX, `Ensure this field has no more than ${CLOSED_NOTE_MAX} characters.`)
    .optional()
    .transform((v) => v ?? ''),
});
export type ClosePlaceForm = z.infer<typeof closePlaceSchema>;
// --- end of closing a place ---------------------------------------------------------------

// --- a place's review (helper "review") ----------------------------------------------------
// POST /staff/places/{id}/review/: the review (the editor's document in `review_doc`, or plain
// paragraphs in `review` without JavaScript: a blank line starts a new one), the byline readers
// see, the version the form was made on, and which button was pressed: publish=yes saves it
// published (or keeps it so), publish=no saves it unpublished (a draft, or taking it down).

export const REVIEW_MAX = 20_000;
export const REVIEW_BYLINE_MAX = 120;

/** The largest document JSON a form may post (the text limit's words with generous markup). */
export const REVIEW_DOC_JSON_MAX = 400_000;

/**
 * The review as a document: the editor's JSON (`review_doc`) when the island posted one, checked
 * against the story schema (storyDocError) and refused under the field `review`; else the
 * textarea's plain text as paragraphs. Either way `review` becomes the document's plain text.
 */
function reviewDocument(f: { review: string; review_doc?: string }, ctx: z.RefinementCtx): { doc: StoryDoc; text: string } | null {
  if (!f.review_doc) {
    const doc = reviewDocFromText(f.review);
    return { doc, text: renderStoryDoc(doc).text };
  }
  let parsed: unknown;
  try {
    if (f.review_doc.length > REVIEW_DOC_JSON_MAX) throw new Error('too long');
    parsed = JSON.parse(f.review_doc);
  } catch {
    ctx.addIssue({ code: 'custom', path: ['review'], message: 'The review could not be read: its document is not valid. Nothing was saved.' });
    return null;
  }
  const error = storyDocError(parsed);
  if (error) {
    ctx.addIssue({ code: 'custom', path: ['review'], message: `The review could not be saved: ${error.replace(/\bbody\b/g, 'review')}` });
    return null;
  }
  return { doc: parsed as StoryDoc, text: renderStoryDoc(parsed as StoryDoc).text };
}

export const placeReviewSchema = z
  .object({
    review: z
      .string({ message: 'Not a valid string.' })
      .optional()
      // Browsers post a textarea's lines as CRLF: kept as \n, so a blank line reads as one.
      .transform((v) => (v ?? '').replace(/\r\n?/g, '\n').trim()),
    review_doc: z.string({ message: 'Not a valid string.' }).optional(),
    review_version: z.string({ message: 'Not a valid string.' }).max(100).optional(),
    byline: z
      .string({ message: 'Give the name readers see as the review\'s author.' })
      .trim()
      .min(1, 'Give the name readers see as the review\'s author.')
      .max(REVIEW_BYLINE_MAX, `Ensure this field has no more than ${REVIEW_BYLINE_MAX} characters.`),
    publish: z.enum(['yes', 'no'], { message: 'Choose whether to publish the review.' }),
  })
  .transform((f, ctx) => {
    const review = reviewDocument(f, ctx);
    if (!review) return z.NEVER;
    if (review.text.length > REVIEW_MAX) {
      ctx.addIssue({ code: 'custom', path: ['review'], message: `Ensure this field has no more than ${REVIEW_MAX.toLocaleString('en-US')} characters.` });
      return z.NEVER;
    }
    if (f.publish === 'yes' && !review.text) {
      ctx.addIssue({ code: 'custom', path: ['review'], message: 'Write the review before publishing it.' });
      return z.NEVER;
    }
    // No version posted (an old form, a script): saved without the two-editors check.
    return { review: review.text, doc: review.doc, byline: f.byline, publish: f.publish, version: f.review_version || null };
  });
export type PlaceReviewForm = z.infer<typeof placeReviewSchema>;
// --- end of a place's review ---------------------------------------------------------------

// --- where a place is (helper "pin") -------------------------------------------------------
// GET /api/v2/places-desk/locate/?latitude=&longitude=: the point the map's pin is on.

/** A latitude or longitude as the query string sends it, within [min, max]; required. */
const locateCoordinate = (min: number, max: number) =>
  z
    .string({ message: 'This field is required.' })
    .trim()
    .regex(/^-?\d{1,3}(\.\d{1,15})?$/, 'A valid number is required.')
    .transform(Number)
    .refine((n) => n >= min && n <= max, `Ensure this value is between ${min} and ${max}.`);

export const locateQuerySchema = z.object({
  latitude: locateCoordinate(-90, 90),
  longitude: locateCoordinate(-180, 180),
});
// --- end of where a place is --------------------------------------------------------------

// --- the desk's place form (helper "desk") -------------------------------------------------
// /staff/places/new/ and /staff/places/{id}/: plain fields, checkboxes named feature_{id} and
// service_{id} (a repeated name would arrive as an array, which a text form does not echo),
// and the hours fields of shared/place-hours-form.ts. An empty latitude/longitude leaves the
// point to the geocoder (the service). Read into the PlaceChanges the service writes.

const trimmed = (max: number) => z.string({ message: 'Not a valid string.' }).trim().max(max, `Ensure this field has no more than ${max} characters.`);
const idText = (message: string) => z.string({ message }).trim().regex(/^\d{1,9}$/, message).transform(Number);
/** Empty: no point given (the geocoder places the address the service is given). */
const pointOrNone = (min: number, max: number) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v, ctx) => {
      if (!v) return null;
      const n = /^-?\d{1,3}(\.\d{1,15})?$/.test(v) ? Number(v) : NaN;
      if (!(n >= min && n <= max)) {
        ctx.addIssue({ code: 'custom', message: `Enter a number between ${min} and ${max}, or leave it empty to place the address.` });
        return z.NEVER;
      }
      return n;
    });

export const placeFormSchema = (policy: AddressPolicy) =>
  z
    .object({
      name: trimmed(PLACE_NAME_MAX).min(1, 'This field may not be blank.'),
      type_id: idText('Select a type.'),
      sub_type_id: z
        .string()
        .trim()
        .optional()
        .transform((v, ctx) => {
          if (!v) return null;
          if (!/^\d{1,9}$/.test(v)) {
            ctx.addIssue({ code: 'custom', message: 'Select a valid sub-type.' });
            return z.NEVER;
          }
          return Number(v);
        }),
      address: trimmed(PLACE_ADDRESS_MAX).min(1, 'Give the street address.'),
      latitude: pointOrNone(-90, 90),
      longitude: pointOrNone(-180, 180),
      phone: z
        .string()
        .trim()
        .optional()
        .transform((v, ctx) => {
          if (!v) return '';
          const phone = normalisePhone(v);
          if (!phone) {
            ctx.addIssue({ code: 'custom', message: 'Enter a phone number such as 416-555-0100.' });
            return z.NEVER;
          }
          return phone;
        }),
      website: z
        .string()
        .trim()
        .max(PLACE_WEBSITE_MAX, `Ensure this field has no more than ${PLACE_WEBSITE_MAX} characters.`)
        .optional()
        .transform((v, ctx) => {
          if (!v) return '';
          // A place's site is a web page: http or https only (the feeds' rules also take webcal).
          if (!/^https?:\/\//i.test(v)) {
            ctx.addIssue({ code: 'custom', message: 'Enter a web address starting with http:// or https://.' });
            return z.NEVER;
          }
          const checked = addFeedSchema(policy).shape.url.safeParse(v);
          if (!checked.success) {
            ctx.addIssue({ code: 'custom', message: checked.error.issues[0]?.message ?? 'Enter a valid URL.' });
            return z.NEVER;
          }
          return checked.data;
        }),
      price_range: z
        .string()
        .trim()
        .optional()
        .transform((v, ctx) => {
          if (!v) return null;
          if (!/^[1-4]$/.test(v)) {
            ctx.addIssue({ code: 'custom', message: 'Select a price range from $ to $$$$.' });
            return z.NEVER;
          }
          return Number(v);
        }),
    })
    .catchall(z.string())
    .transform((form, ctx): PlaceChanges & { name: string; type_id: number } => {
      const hours = hoursFromForm(form);
      if (!hours.ok) {
        for (const [field, message] of Object.entries(hours.errors)) ctx.addIssue({ code: 'custom', path: [field], message });
        return z.NEVER;
      }
      const ids = (prefix: string) => Object.keys(form).filter((k) => k.startsWith(prefix) && /^\d{1,9}$/.test(k.slice(prefix.length))).map((k) => Number(k.slice(prefix.length)));
      return {
        name: form.name,
        type_id: form.type_id,
        sub_type_id: form.sub_type_id,
        address: form.address,
        latitude: form.latitude,
        longitude: form.longitude,
        phone: form.phone,
        website: form.website,
        price_range: form.price_range,
        hours: hours.hours,
        features: ids('feature_'),
        services: ids('service_'),
      };
    });
// --- end of the desk's place form ----------------------------------------------------------
