import { z } from 'zod';
import type { Db } from '../../db';
import { validate } from '../../http/validate';
import { toListingDTO, type ListingRow } from './serialize';
import { listingsQuery } from './queries';
import type { ListingDTO } from '../../../shared/dto';
import { messages, pkField } from '../saves/fields';
import type { AnySaveKind, OrderTerms, SaveRow } from '../saves/save-kind';
import { BY_DATE_SAVED } from '../saves/ordering';

// What favourites, to-dos and ratings share: the saved object is a listing, shown with the
// member's own rating of it (the "Rate them:" stars on completed to-dos read it). It lives
// with listings, which depend on saves, so that saves never imports listings.

type ListingObject = Pick<AnySaveKind, 'objectColumn' | 'objectTable' | 'objectAlias' | 'objectQuery' | 'unsaveableReason'>;

export const listingObject: ListingObject = {
  objectColumn: 'listing_id',
  objectTable: 'listings',
  objectAlias: 'l',
  objectQuery: (db: Db, memberId: number) =>
    listingsQuery(db)
      .leftJoin('ratings as ur', (join) => join.on('ur.listing_id', 'l.id').andOnVal('ur.profile_id', memberId))
      .select('ur.id as user_rating_id', 'ur.rating as user_rating'),
  unsaveableReason: async (db: Db, listingId: number) =>
    (await db('listings').where({ id: listingId }).first('id')) ? null : messages.doesNotExist(listingId),
};

export const LISTING_SAVE_ORDERINGS: Record<string, OrderTerms> = {
  ...BY_DATE_SAVED,
  listing_name: [{ column: 'l.name', order: 'asc' }],
};

const listingPayload = z.object({ listing: pkField });

/** {listing} of a create payload. */
export function parseListing(body: unknown): number {
  return validate(listingPayload, body).listing;
}

/** The listing row listingObject's query selects: the listing, and the member's own rating. */
export type SavedListingRow = ListingRow & { user_rating_id: number | null; user_rating: number | null };

export function savedListingDTO(row: SaveRow<SavedListingRow>, siteUrl: string): ListingDTO {
  return toListingDTO(row, siteUrl);
}
