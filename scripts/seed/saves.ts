import type { Knex } from 'knex';
import { insertBatches } from './batch';
import type { ArticleRef } from './articles';
import type { EventRef } from './events';
import type { MemberRef } from './members';
import type { Rng } from './random';

// Members' bookmarks of articles, videos and events (favourites, ratings and to-dos of
// listings are in engagement.ts). Event bookmarks favour events still to come.

export async function seedBookmarks(db: Knex, opts: { rng: Rng; now: Date; members: MemberRef[]; articles: ArticleRef[]; videoIds: number[]; events: EventRef[] }): Promise<{ articles: number; videos: number; events: number }> {
  const articleRows: Record<string, unknown>[] = [];
  const videoRows: Record<string, unknown>[] = [];
  const eventRows: Record<string, unknown>[] = [];
  const nowMs = opts.now.getTime();
  const recentArticles = opts.articles.filter((a) => nowMs - a.datePublished.getTime() < 365 * 86_400_000);
  const upcoming = opts.events.filter((e) => e.lastAt && e.lastAt.getTime() > nowMs);
  const past = opts.events.filter((e) => !e.lastAt || e.lastAt.getTime() <= nowMs);
  const when = (r: Rng, m: MemberRef, notBefore = 0) => {
    const from = Math.max(m.dateJoined.getTime(), notBefore);
    return new Date(from + Math.floor(r.float() * Math.max(0, nowMs - from)));
  };
  for (const m of opts.members) {
    const r = opts.rng.fork(`bookmarks:${m.id}`);
    for (const a of r.sample(recentArticles.length ? recentArticles : opts.articles, r.int(0, 18))) {
      articleRows.push({ profile_id: m.id, article_id: a.id, date_created: when(r, m, a.datePublished.getTime()) });
    }
    for (const id of r.sample(opts.videoIds, r.int(0, 8))) videoRows.push({ profile_id: m.id, video_id: id, date_created: when(r, m) });
    const events = [...r.sample(upcoming, r.int(0, 8)), ...r.sample(past, r.int(0, 3))];
    for (const e of events) eventRows.push({ profile_id: m.id, event_id: e.id, date_created: when(r, m, nowMs - 45 * 86_400_000), add_to_calendar: r.chance(0.2) });
  }
  await insertBatches(db, 'article_bookmarks', articleRows, 2000);
  await insertBatches(db, 'video_bookmarks', videoRows, 2000);
  await insertBatches(db, 'event_bookmarks', eventRows, 2000);
  return { articles: articleRows.length, videos: videoRows.length, events: eventRows.length };
}
