import type { Knex } from 'knex';
import { slugify } from '../../shared/format/text';
import { insertReturningIds, SlugRegistry } from './batch';
import type { ImagePool } from './images';
import type { ListingRef } from './listings';
import type { MemberRef } from './members';
import type { Rng } from './random';

// Contests: prizes at real listings and City events. About a third have ended, so both the
// open and the past contest pages have something to show. Every contest with a prize asks a
// skill-testing question (Canadian contest law), and members have entered most of them, so the
// staff pages have entries to count and draw from.

const PRIZES = [
  { title: 'Win dinner for two at {place}', prize: 'A $150 gift card for dinner for two at {place}.' },
  { title: 'Win a year of coffee from {place}', prize: 'One coffee a day for a year at {place}.' },
  { title: 'Win a private tasting at {place}', prize: 'A private tasting for up to six people at {place}.' },
  { title: 'Win brunch for four at {place}', prize: 'Brunch for four people at {place}, drinks included.' },
  { title: 'Win tickets to {event}', prize: 'A pair of tickets to {event}.' },
  { title: 'Win a Toronto staycation', prize: 'Two nights in a downtown Toronto hotel and dinner at {place}.' },
  { title: 'Win a TTC pass for a month', prize: 'A monthly TTC pass, loaded onto a PRESTO card.' },
  { title: 'Win a cake a month from {place}', prize: 'A celebration cake every month for six months from {place}.' },
];

const RULES = `Open to residents of Ontario who are 18 or older. One entry per member. The winner is drawn at random from all eligible entries after the contest closes and is contacted by email. No purchase necessary. The prize must be accepted as awarded and has no cash value.`;

/** A question a person answers without a calculator: 'a × b + c' (Canadian contests' usual form). */
export function skillQuestion(r: Rng): { skill_question: string; skill_answer: number } {
  const [a, b, c] = [r.int(3, 12), r.int(2, 9), r.int(5, 40)];
  return { skill_question: `${a} × ${b} + ${c} = ?`, skill_answer: a * b + c };
}

export async function seedContests(
  db: Knex,
  opts: { rng: Rng; now: Date; listings: ListingRef[]; eventTitles: string[]; images: ImagePool; count: number; members?: MemberRef[] },
): Promise<number> {
  const slugs = new SlugRegistry();
  const places = opts.listings.filter((l) => ['restaurants', 'bars', 'cafes', 'bakeries'].includes(l.type));
  const day = 86_400_000;
  const rows = Array.from({ length: opts.count }, (_, i) => {
    const r = opts.rng.fork(`contest:${i}`);
    const t = PRIZES[i % PRIZES.length];
    const place = places.length ? r.pick(places).name : 'a Toronto restaurant';
    const event = opts.eventTitles.length ? r.pick(opts.eventTitles) : 'a Toronto festival';
    const fill = (s: string) => s.replace(/\{place\}/g, place).replace(/\{event\}/g, event);
    const title = fill(t.title).slice(0, 255);
    // Every third contest has ended; the rest close between tomorrow and six weeks out.
    const expired = i % 3 === 2;
    const end = expired ? opts.now.getTime() - r.int(5, 400) * day : opts.now.getTime() + r.int(1, 42) * day;
    const start = end - r.int(14, 45) * day;
    const prize = fill(t.prize);
    return {
      title,
      name: slugs.take(slugify(title)),
      description: `${fill(t.prize)} Enter before the deadline for your chance to win. ${r.pick(['Good luck!', 'Winners are announced on our social channels.', 'Share it with a friend who deserves a treat.'])}`,
      prize,
      rules: RULES,
      image_key: r.pick(opts.images.contests.concat(opts.images.restaurants)),
      start_date: new Date(Math.min(start, opts.now.getTime())),
      end_date: new Date(end),
      date_published: new Date(Math.min(start, opts.now.getTime())),
      // Drawn last from this contest's stream, so the fields above stay as they were.
      ...(prize ? skillQuestion(r) : { skill_question: null, skill_answer: null }),
    };
  });
  const ids = await insertReturningIds(db, 'contests', rows);
  const members = opts.members ?? [];
  const entries = rows.flatMap((row, i) => {
    if (!members.length) return [];
    const r = opts.rng.fork(`contest-entries:${i}`);
    const from = row.start_date.getTime();
    const to = Math.min(row.end_date.getTime(), opts.now.getTime());
    return r.sample(members, r.int(0, 15)).map((m) => ({
      contest_id: ids[i],
      profile_id: m.id,
      skill_answer: row.skill_answer,
      created_at: new Date(from + Math.floor(r.float() * Math.max(1, to - from))),
    }));
  });
  if (entries.length) await db('contest_entries').insert(entries);
  return rows.length;
}
