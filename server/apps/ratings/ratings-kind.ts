import { z } from 'zod';
import { validate } from '../../http/validate';
import { pkField, ratingField } from '../saves/fields';
import { isoTime, type RatingDTO } from '../saves/dto';
import { defineSaveKind, type SaveKind } from '../saves/save-kind';
import { LISTING_SAVE_ORDERINGS, listingObject, savedListingDTO, type SavedListingRow } from '../listings/listing-save-queries';
import { recomputeListingRating } from './score-queries';

// A member's star ratings of places, one per place. Rating a place again (POST) changes the
// existing rating and answers it with 200, because the islands may post from a stale map; a
// PATCH changes it by id. Every change recomputes the listing's average and smart score.

const createPayload = z.object({ listing: pkField, rating: ratingField });
const patchPayload = z.object({ rating: ratingField });

export function parseRatingPatch(body: unknown, now: Date): Record<string, unknown> {
  return { rating: validate(patchPayload, body).rating, date_updated: now };
}

/** Built once per context (AppContext.saveKinds). */
export function createRatingsKind(): SaveKind<RatingDTO, SavedListingRow> {
  return defineSaveKind<RatingDTO, SavedListingRow>('ratings', {
    ...listingObject,
    table: 'ratings',
    saveColumns: ['rating', 'date_updated'],
    toDTO: (row, siteUrl) => ({
      id: row.save_id,
      rating: Number(row.save_rating),
      date_created: isoTime(row.save_date_created),
      date_updated: isoTime(row.save_date_updated),
      listing: savedListingDTO(row, siteUrl),
    }),
    parseCreate(body, now) {
      const { listing, rating } = validate(createPayload, body);
      return { objectId: listing, fields: { rating, date_updated: now }, onExisting: { rating, date_updated: now } };
    },
    onChange: (trx, listingId) => recomputeListingRating(trx, listingId),
    list: {
      orderings: {
        ...LISTING_SAVE_ORDERINGS,
        '-rating': [{ column: 's.rating', order: 'desc' }],
        rating: [{ column: 's.rating', order: 'asc' }],
      },
    },
  });
}

// AppContext.saveKinds.ratings is this kind (the registry builds it).
declare module '../../context' {
  interface SaveKinds {
    ratings: SaveKind<RatingDTO, SavedListingRow>;
  }
}
