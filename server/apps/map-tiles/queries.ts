import type { Db } from '../../db';

// The static map's one read (api.ts): where a listing is, by its primary key.

/** The listing's position (null columns when it has none), or undefined when there is no such listing. */
export async function listingPosition(db: Db, id: number): Promise<{ latitude: number | null; longitude: number | null } | undefined> {
  return db('listings').where({ id }).first('latitude', 'longitude');
}
