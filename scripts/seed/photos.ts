import type { Knex } from 'knex';
import { insertBatches } from './batch';
import { IMAGE_HEIGHT, IMAGE_WIDTH, type ImagePool } from './images';
import type { ListingRef } from './listings';
import type { MemberRef } from './members';
import type { Rng } from './random';

const CAPTIONS = ['The front counter', 'Lunch special', 'Our table by the window', 'Dessert to share', 'The patio on a sunny day', 'Weekend brunch', 'Late night snack', 'The menu board', 'First visit', 'The crew at work'];

/** Member photos of a few hundred listings, using the placeholder images of each type. */
export async function seedListingPhotos(db: Knex, opts: { rng: Rng; now: Date; listings: ListingRef[]; members: MemberRef[]; images: ImagePool; listingCount: number }): Promise<number> {
  const candidates = opts.listings.filter((l) => l.type !== 'food-shops');
  if (!candidates.length || !opts.members.length) return 0;
  const rows: Record<string, unknown>[] = [];
  for (const l of opts.rng.sample(candidates, opts.listingCount)) {
    const r = opts.rng.fork(`photos:${l.id}`);
    const pool = opts.images[l.type] ?? opts.images.restaurants;
    for (let i = r.int(1, 4); i > 0; i--) {
      const member = r.pick(opts.members);
      const from = member.dateJoined.getTime();
      rows.push({
        listing_id: l.id,
        profile_id: member.id,
        image_key: r.pick(pool),
        width: IMAGE_WIDTH,
        height: IMAGE_HEIGHT,
        title: `${r.pick(CAPTIONS)} at ${l.name}`.slice(0, 255),
        creation_date: new Date(from + Math.floor(r.float() * Math.max(0, opts.now.getTime() - from))),
      });
    }
  }
  await insertBatches(db, 'photos', rows, 2000);
  return rows.length;
}
