import type { Knex } from 'knex';

// listings.favourite_count, moved in the transaction that saves or deletes a favourite
// (favourites-kind.ts's onChange).

/** One more favourite of the listing. */
export async function incrementFavouriteCount(trx: Knex.Transaction, listingId: number): Promise<void> {
  await trx('listings').where({ id: listingId }).increment('favourite_count', 1);
}

/** One fewer favourite of the listing, never below 0. */
export async function decrementFavouriteCount(trx: Knex.Transaction, listingId: number): Promise<void> {
  await trx('listings').where({ id: listingId }).update({ favourite_count: trx.raw('greatest(favourite_count - 1, 0)') });
}
