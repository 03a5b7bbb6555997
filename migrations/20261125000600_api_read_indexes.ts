import type { Knex } from 'knex';

// The listing search in a map's box at city scale (scripts/bench/explain.ts "listings bbox"):
// the (latitude, longitude) btree found the 260 listings of a neighbourhood-sized box, but
// ordering them by name read each one's heap page (250 pages, 5 ms). Carrying the name too,
// the page of ids is picked from the index alone (index-only scan and a top-N sort, 0.4 ms),
// and only that page's rows are read. It replaces listings_latitude_longitude_id (a prefix
// of it: the distance searches use this one the same way).
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`CREATE INDEX listings_latitude_longitude_id_name ON listings (latitude, longitude) INCLUDE (id, name)`);
  await knex.raw(`DROP INDEX listings_latitude_longitude_id`);
}
