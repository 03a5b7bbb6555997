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

export const messages = {
  listingGone: 'That place is no longer listed; choose another or type the venue name.',
  imageGone: 'The image could not be found; upload it again.',
};

export interface SubmittedEvent {
  id: number;
  status: 'pending';
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

  return {
    async submit(memberId: number, raw: RawForm, file?: Express.Multer.File): Promise<SubmittedEvent> {
      const today = moment.tz(ctx.now(), config.city.timeZone).format('YYYY-MM-DD');
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
      const id = await db.transaction(async (trx) => {
        const eventId = await insertSubmittedEvent(trx, {
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
          source: 'member',
          submitted_by: memberId,
          status: 'pending',
          date_created: ctx.now(),
          date_updated: ctx.now(),
        });
        await replaceOccurrences(trx, eventId, occurrences);
        return eventId;
      });
      return { id, status: 'pending' };
    },
  };
}

export type EventSubmissionService = ReturnType<typeof createEventSubmissionService>;
