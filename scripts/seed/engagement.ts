import type { Knex } from 'knex';
import { insertBatches } from './batch';
import type { Rng } from './random';
import type { ListingRef } from './listings';
import type { MemberRef } from './members';

// What members do with listings: ratings, favourites and to-dos. A few thousand listings are
// "known" (weighted towards restaurants, bars and cafes, with a long tail of popularity), and
// each has a hidden quality that its ratings scatter around, so averages differ meaningfully.

const TYPE_WEIGHT: Record<string, number> = { restaurants: 1, bars: 1, cafes: 0.9, bakeries: 0.8, 'take-out': 0.5, 'food-shops': 0.05 };

interface KnownListing {
  id: number;
  quality: number;
  weight: number;
}

/** Weighted sampling without replacement over a fixed pool (cumulative weights + bisection). */
class WeightedPool<T extends { weight: number }> {
  private readonly cumulative: number[] = [];
  private readonly total: number;

  constructor(private readonly items: T[]) {
    let sum = 0;
    for (const it of items) this.cumulative.push((sum += it.weight));
    this.total = sum;
  }

  draw(rng: Rng, k: number): T[] {
    const picked = new Set<number>();
    for (let tries = 0; picked.size < Math.min(k, this.items.length) && tries < k * 20; tries++) {
      const r = rng.float() * this.total;
      let lo = 0, hi = this.cumulative.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (this.cumulative[mid] > r) hi = mid;
        else lo = mid + 1;
      }
      picked.add(lo);
    }
    return [...picked].sort((a, b) => a - b).map((i) => this.items[i]);
  }
}

function knownListings(rng: Rng, listings: ListingRef[], count: number): KnownListing[] {
  const candidates = listings.filter((l) => rng.chance(TYPE_WEIGHT[l.type] ?? 0.1));
  return rng.sample(candidates, count).map((l, i) => ({
    id: l.id,
    quality: 2.4 + rng.float() * 2.5,
    // Zipf-like: a few listings get most of the attention.
    weight: 1 / Math.pow(i + 1, 0.6),
  }));
}

function dateBetween(rng: Rng, from: Date, to: Date): Date {
  const a = from.getTime(), b = Math.max(a, to.getTime());
  return new Date(a + Math.floor(rng.float() * (b - a)));
}

export interface EngagementCounts {
  ratings: number;
  favourites: number;
  todos: number;
}

export async function seedListingEngagement(db: Knex, opts: { rng: Rng; now: Date; listings: ListingRef[]; members: MemberRef[]; knownCount?: number }): Promise<EngagementCounts> {
  const { rng, now } = opts;
  const known = knownListings(rng.fork('known'), opts.listings, Math.min(opts.knownCount ?? 3000, opts.listings.length));
  if (!known.length) return { ratings: 0, favourites: 0, todos: 0 };
  const pool = new WeightedPool(known);
  const ratings: Record<string, unknown>[] = [];
  const favourites: Record<string, unknown>[] = [];
  const todos: Record<string, unknown>[] = [];
  for (const m of opts.members) {
    const r = rng.fork(`engagement:${m.id}`);
    for (const l of pool.draw(r, r.int(4, 45))) {
      const score = Math.max(1, Math.min(5, Math.round(l.quality + (r.float() - 0.5) * 2.4)));
      const created = dateBetween(r, m.dateJoined, now);
      ratings.push({ profile_id: m.id, listing_id: l.id, rating: score, date_created: created, date_updated: created });
    }
    for (const l of pool.draw(r, r.int(2, 30))) {
      if (r.chance(l.quality / 5)) favourites.push({ profile_id: m.id, listing_id: l.id, date_created: dateBetween(r, m.dateJoined, now) });
    }
    for (const l of pool.draw(r, r.int(0, 12))) {
      const created = dateBetween(r, m.dateJoined, now);
      const done = r.chance(0.35);
      todos.push({ profile_id: m.id, listing_id: l.id, date_created: created, is_done: done, date_completed: done ? dateBetween(r, created, now) : null });
    }
  }
  await insertBatches(db, 'ratings', ratings, 2000);
  await insertBatches(db, 'favourites', favourites, 2000);
  await insertBatches(db, 'todos', todos, 2000);
  return { ratings: ratings.length, favourites: favourites.length, todos: todos.length };
}

/**
 * Recomputes the listing columns denormalised from ratings and favourites.
 *
 *   rating             = round(avg(r), 2), null without ratings
 *   rating_count       = n
 *   rating_rank        = (C * m + Σr) / (C + n), null without ratings (the RATING ordering)
 *                        (server/apps/listings/smart-review.ts is the same formula)
 *   favourite_count    = number of favourites
 *   smart_review_score = ((C * m + Σr) / (C + n)) * (1 + 0.1 * recent / n)
 *
 * where n is the listing's number of ratings, Σr their sum, m = 3.5 the prior (a middling
 * place), C = 5 (a listing counts as if it had five extra ratings of m, so one 5-star
 * rating does not beat forty 4.6s), and `recent` the number of its ratings created within the
 * 365 days before `asOf` (the recency factor lifts a listing by at most 10% when all its
 * ratings are from the past year). 0 without ratings, so unrated listings sort last.
 */
export async function recomputeListingStats(db: Knex, asOf: Date): Promise<void> {
  await db.raw(
    `UPDATE listings SET rating = NULL, rating_count = 0, rating_rank = NULL, smart_review_score = 0
      WHERE rating_count <> 0 AND NOT EXISTS (SELECT 1 FROM ratings r WHERE r.listing_id = listings.id)`,
  );
  await db.raw(
    `WITH s AS (SELECT listing_id, count(*)::int AS n, sum(rating)::float8 AS total,
                       count(*) FILTER (WHERE date_created > ?::timestamptz - interval '365 days')::float8 AS recent
                  FROM ratings GROUP BY listing_id)
     UPDATE listings l
        SET rating = round((s.total / s.n)::numeric, 2),
            rating_count = s.n,
            rating_rank = (5 * 3.5 + s.total) / (5 + s.n),
            smart_review_score = ((5 * 3.5 + s.total) / (5 + s.n)) * (1 + 0.1 * s.recent / s.n)
       FROM s
      WHERE l.id = s.listing_id`,
    [asOf],
  );
  await db.raw(
    `UPDATE listings SET favourite_count = 0
      WHERE favourite_count <> 0 AND NOT EXISTS (SELECT 1 FROM favourites f WHERE f.listing_id = listings.id)`,
  );
  await db.raw(
    `UPDATE listings l SET favourite_count = f.n
       FROM (SELECT listing_id, count(*)::int AS n FROM favourites GROUP BY listing_id) f
      WHERE l.id = f.listing_id AND l.favourite_count <> f.n`,
  );
  await db.raw(
    `UPDATE listings SET appears_in_best_of_lists = EXISTS (SELECT 1 FROM best_of_list_items i WHERE i.listing_id = listings.id)
      WHERE appears_in_best_of_lists <> EXISTS (SELECT 1 FROM best_of_list_items i WHERE i.listing_id = listings.id)`,
  );
}
