import type { Knex } from 'knex';
import type { Db } from '../../db';
import type { scheduleColumns } from '../events/schedule';

// What a member's submission reads and writes: the listing it names as its venue, and the
// event itself, saved as pending (moderation-queries.ts has the staff's queue).

export interface ListingPlace {
  id: number;
  name: string;
  address: string;
  latitude: number | null;
  longitude: number | null;
}

export async function findListing(db: Db, id: number): Promise<ListingPlace | undefined> {
  return db('listings').where({ id }).first('id', 'name', 'address', 'latitude', 'longitude');
}

/** An events row as a member's submission writes it. */
export type SubmittedEventRow = ReturnType<typeof scheduleColumns> & {
  slug: string;
  title: string;
  description: string;
  venue_name: string;
  listing_id: number | null;
  is_multiple_venues: boolean;
  is_virtual_event: boolean;
  address: string;
  latitude: number | null;
  longitude: number | null;
  website: string;
  image_key: string | null;
  image_crop: string | null;
  /** A member's submission, or staff's editorial event (published at once, no submitting member). */
  source: 'member' | 'editorial';
  submitted_by: number | null;
  status: 'pending' | 'approved';
  date_created: Date;
  date_updated: Date;
};

/** Inserts the submitted event; its id. */
export async function insertSubmittedEvent(trx: Knex.Transaction, row: SubmittedEventRow): Promise<number> {
  const [inserted] = await trx('events').insert(row).returning('id');
  return Number(inserted.id ?? inserted);
}
