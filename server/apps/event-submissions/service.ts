import moment from 'moment-timezone';
import type { AppContext } from '../../context';
import { ValidationError, type FieldErrors } from '../../http/errors';
import { slugify } from '../../../shared/format/text';
import { LIMITS } from '../../../shared/constants';
import { expandOccurrences, scheduleColumns } from '../events/schedule';
import { replaceOccurrences } from '../events/occurrence-queries';
import { uploadKeyFromUrl, type ImageUploadService } from '../uploads/service';
import { parseEventForm, type EventForm, type RawForm } from './form';
import { pointOfAddress } from '../geocoder/queries';
import { findListing, insertSubmittedEvent } from './queries';
import { lockEvent, updateEditedEvent } from './staff-event-queries';
import { recordStaffAction, type StaffActor } from '../staff-audit/audit-log-queries';

export const messages = {
  listingGone: 'That place is no longer listed; choose another or type the venue name.',
  imageGone: 'The image could not be found; upload it again.',
};

export interface SubmittedEvent {
  id: number;
  status: 'pending';
}

/** An event staff published from the same form (/staff/events/new/). */
export interface PublishedEvent {
  id: number;
  slug: string;
  status: 'approved';
}

/**
 * Member event submissions: the form is checked, the image resolved (uploaded earlier through
 * /streams/image-upload/, or attached to the form itself when JavaScript is off), and the event
 * is saved as pending with its occurrences, waiting for a moderator (/staff/events/, or scripts/events-moderate.ts).
 */
export function createEventSubmissionService(ctx: Pick<AppContext, 'db' | 'storage' | 'config' | 'now'>, uploads: ImageUploadService) {
  const { db, storage, config } = ctx;

  async function resolveImage(memberId: number, form: EventForm, file: Express.Multer.File | undefined): Promise<string | null> {
    if (file) {
      const stored = await uploads.store(memberId, file, { box_width: LIMITS.eventImageBoxWidth, box_height: LIMITS.eventImageBoxHeight, cropping_mode: 'aspect-fill' });
      return stored.key;
    }
    if (!form.image.uploadedImageUrl) return null;
    const key = uploadKeyFromUrl(form.image.uploadedImageUrl, memberId, config.site.url);
    if (!key || !(await storage.exists(key))) throw ValidationError.field('image', messages.imageGone);
    return key;
  }

  /**
   * The form read into an events row and its occurrences (a member's or staff's: the same
   * fields, schedules and checks), or the ValidationError naming each refused field. The image
   * is stored under `memberId`'s uploads. `since`: an edited event's first day, which may
   * have passed (a running event keeps its start), where a new one must not be over.
   */
  async function prepare(memberId: number, raw: RawForm, file: Express.Multer.File | undefined, since?: string) {
    const cityToday = moment.tz(ctx.now(), config.city.timeZone).format('YYYY-MM-DD');
    const today = since && since < cityToday ? since : cityToday;
    const parsed = parseEventForm(raw, { today });
    if (!parsed.ok) throw new ValidationError(parsed.errors);
    const form = parsed.form;

    const errors: FieldErrors = {};
    const listing = form.listingId ? await findListing(db, form.listingId) : undefined;
    if (form.listingId && !listing) errors.venueDisplayName = [messages.listingGone];
    let imageKey: string | null = null;
    try {
      imageKey = await resolveImage(memberId, form, file);
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      Object.assign(errors, err.fields);
    }
    if (Object.keys(errors).length) throw new ValidationError(errors);

    // Without a listing, the address the member typed places the event on the map when our
    // own addresses know its street (the geocoder); a virtual or multi-venue event has none.
    const place = listing ?? (form.address ? await pointOfAddress(db, form.address) : null);
    const { schedule } = form;
    const occurrences = expandOccurrences(schedule, config.city.timeZone);
    const row = {
      slug: slugify(form.title),
      title: form.title,
      description: form.description,
      venue_name: listing ? form.venueDisplayName || listing.name : form.venueName,
      listing_id: listing?.id ?? null,
      is_multiple_venues: form.isMultipleVenues,
      is_virtual_event: form.isVirtualEvent,
      address: form.address || listing?.address || '',
      latitude: place?.latitude ?? null,
      longitude: place?.longitude ?? null,
      website: form.website,
      ...scheduleColumns(schedule),
      image_key: imageKey,
      image_crop: imageKey && form.image.crop ? JSON.stringify(form.image.crop) : null,
      date_created: ctx.now(),
      date_updated: ctx.now(),
    };
    return { row, occurrences };
  }

  return {
    async submit(memberId: number, raw: RawForm, file?: Express.Multer.File): Promise<SubmittedEvent> {
      const { row, occurrences } = await prepare(memberId, raw, file);
      const id = await db.transaction(async (trx) => {
        const eventId = await insertSubmittedEvent(trx, { ...row, source: 'member', submitted_by: memberId, status: 'pending' });
        await replaceOccurrences(trx, eventId, occurrences);
        return eventId;
      });
      return { id, status: 'pending' };
    },

    /**
     * Staff's event (/staff/events/new/): the member form's fields and schedules, published at
     * once (an editorial event, approved, with no submitting member: who made it is in the
     * staff audit log, written in the same transaction as the event and its occurrences).
     */
    async publish(actor: StaffActor, raw: RawForm, file?: Express.Multer.File): Promise<PublishedEvent> {
      const { row, occurrences } = await prepare(actor.id, raw, file);
      const id = await db.transaction(async (trx) => {
        const eventId = await insertSubmittedEvent(trx, { ...row, source: 'editorial', submitted_by: null, status: 'approved' });
        await replaceOccurrences(trx, eventId, occurrences);
        await recordStaffAction(trx, actor, {
          action: 'event.create',
          subjectType: 'event',
          subjectId: eventId,
          detail: { title: row.title, schedule_type: row.schedule_type, occurrences: occurrences.length, listing_id: row.listing_id },
        });
        return eventId;
      });
      return { id, slug: row.slug, status: 'approved' };
    },

    /**
     * Staff's change to event `id` (/staff/events/{id}/edit/) with the same form: the row and
     * its occurrences rewritten and the audit entry, in one transaction. Its status, source and
     * submitter stay; without a new image it keeps its own. Answers its slug before and after.
     */
    async update(actor: StaffActor, id: number, since: string, raw: RawForm, file?: Express.Multer.File): Promise<{ id: number; slug: string; before: string }> {
      const { row, occurrences } = await prepare(actor.id, raw, file, since);
      const { date_created: _created, image_key, image_crop, ...fields } = row;
      const before = await db.transaction(async (trx) => {
        const old = await lockEvent(trx, id);
        if (!old) throw ValidationError.field('title', 'This event is no longer there.');
        await updateEditedEvent(trx, id, { ...fields, ...(image_key ? { image_key, image_crop } : {}) });
        await replaceOccurrences(trx, id, occurrences);
        await recordStaffAction(trx, actor, {
          action: 'event.update',
          subjectType: 'event',
          subjectId: id,
          detail: { title: row.title, schedule_type: row.schedule_type, occurrences: occurrences.length, new_image: Boolean(image_key), ...(old.slug !== row.slug ? { old_slug: old.slug } : {}) },
        });
        return old.slug;
      });
      return { id, slug: row.slug, before };
    },
  };
}

export type EventSubmissionService = ReturnType<typeof createEventSubmissionService>;
