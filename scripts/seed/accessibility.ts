import type { Knex } from 'knex';
import { insertBatches } from './batch';
import type { Rng } from './random';
import type { ListingRef } from './listings';
import type { MemberRef } from './members';
import { ACCESSIBILITY_KEYS } from '../../shared/accessibility';

// Accessibility of places (issue 27): members' reports on a few hundred places, most agreeing
// with what the place really has and some not, and staff's verification on some of them, so the
// listing pages, the hub's accessibility filter and the staff queue all have something to show.
// Three statements in all (the reports in batches, the summary in one INSERT … SELECT, the
// verifications in one UPDATE … FROM VALUES), to keep the seed fast on PGlite.

const NOTES: Record<'yes' | 'no', string[]> = {
  yes: ['Easy to get in with a wheelchair.', 'Staff were happy to help.', 'Checked on a weekday afternoon.', 'Ramp at the side door.'],
  no: ['Two steps at the door.', 'Asked, and they said no.', 'The washroom is down a narrow staircase.', 'Only high stools by the window.'],
};

export interface AccessibilitySeedResult {
  reports: number;
  verified: number;
}

export async function seedAccessibility(
  db: Knex,
  opts: { rng: Rng; now: Date; listings: ListingRef[]; members: MemberRef[]; staffId: number; listingCount?: number },
): Promise<AccessibilitySeedResult> {
  const { rng, now, members } = opts;
  if (!members.length || !opts.listings.length) return { reports: 0, verified: 0 };
  const places = rng.sample(opts.listings, Math.min(opts.listingCount ?? 300, opts.listings.length));
  const reports: Record<string, unknown>[] = [];
  const verifications: Array<{ listing: number; attribute: string; verified: boolean; at: Date }> = [];
  for (const place of places) {
    const r = rng.fork(`accessibility:${place.id}`);
    for (const attribute of r.sample(ACCESSIBILITY_KEYS, r.int(1, 4))) {
      const truth = r.chance(0.6);
      const reporters = r.sample(members, r.int(1, 5));
      let latest = 0;
      for (const m of reporters) {
        const answer = r.chance(0.85) === truth ? 'yes' : 'no';
        const from = m.dateJoined.getTime();
        const at = new Date(from + Math.floor(r.float() * Math.max(0, now.getTime() - from)));
        latest = Math.max(latest, at.getTime());
        // Reports older than a month have been seen by staff; newer ones wait in the queue.
        const reviewed = now.getTime() - at.getTime() > 30 * 86_400_000 ? now : null;
        reports.push({ profile_id: m.id, listing_id: place.id, attribute, answer, note: r.chance(0.3) ? r.pick(NOTES[answer]) : '', date_created: at, date_updated: at, reviewed_at: reviewed });
      }
      if (r.chance(0.15)) verifications.push({ listing: place.id, attribute, verified: truth, at: new Date(Math.min(now.getTime(), latest + 86_400_000)) });
    }
  }
  await insertBatches(db, 'accessibility_reports', reports);
  await db.raw(`
    INSERT INTO listing_accessibility (listing_id, attribute, yes_count, no_count, last_reported_at)
    SELECT listing_id, attribute, count(*) FILTER (WHERE answer = 'yes')::int, count(*) FILTER (WHERE answer = 'no')::int, max(date_updated)
    FROM accessibility_reports GROUP BY listing_id, attribute`);
  if (verifications.length) {
    const values = verifications.map(() => '(?::int, ?::text, ?::boolean, ?::timestamptz)').join(', ');
    await db.raw(
      `UPDATE listing_accessibility la SET verified = v.verified, verified_at = v.at, verified_by = ?
       FROM (VALUES ${values}) AS v(listing_id, attribute, verified, at)
       WHERE la.listing_id = v.listing_id AND la.attribute = v.attribute`,
      [opts.staffId, ...verifications.flatMap((v) => [v.listing, v.attribute, v.verified, v.at])],
    );
  }
  return { reports: reports.length, verified: verifications.length };
}
