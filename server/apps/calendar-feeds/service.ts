import type { AppContext } from '../../context';
import type { CalendarFeedDTO } from '../../../shared/dto';
import { NotFoundError, ValidationError } from '../../http/errors';
import { MAX_FEEDS_PER_MEMBER, messages } from './schemas';
import { syncFeed, type SyncOutcome } from './feed-sync-queries';
import { deleteFeed, feedUrls, insertFeed, listFeeds, lockMember, ownFeed, type FeedRow } from './queries';

// A member's calendar feeds: list, add, remove, and "Check now". Another member's feed is a
// 404, as if it did not exist.

const iso = (d: Date | string | null): string | null => (d ? new Date(d).toISOString() : null);

export function feedDto(r: FeedRow): CalendarFeedDTO {
  return {
    id: Number(r.id),
    url: String(r.url),
    status: r.status === 'paused' ? 'paused' : 'active',
    paused_reason: (r.paused_reason as string | null) ?? null,
    last_fetched_at: iso(r.last_fetched_at as Date | null),
    last_success_at: iso(r.last_success_at as Date | null),
    last_error: (r.last_error as string | null) ?? null,
    consecutive_failures: Number(r.consecutive_failures ?? 0),
    events_found: r.events_found === null || r.events_found === undefined ? null : Number(r.events_found),
    next_fetch_at: r.status === 'paused' ? null : iso(r.next_fetch_at as Date | null),
    date_created: iso(r.date_created as Date)!,
  };
}

export function createCalendarFeedsService(ctx: Pick<AppContext, 'db' | 'config' | 'now' | 'mailer' | 'logger'>) {
  const { db } = ctx;
  const own = async (memberId: number, id: number): Promise<FeedRow> => {
    const row = await ownFeed(db, memberId, id);
    if (!row) throw new NotFoundError();
    return row;
  };
  return {
    async list(memberId: number): Promise<CalendarFeedDTO[]> {
      return (await listFeeds(db, memberId)).map(feedDto);
    },
    async add(memberId: number, url: string): Promise<CalendarFeedDTO> {
      return db.transaction(async (trx) => {
        // The member's row locked, so two adds at once cannot both pass the count.
        await lockMember(trx, memberId);
        const feeds = await feedUrls(trx, memberId);
        if (feeds.some((f) => f.url === url)) throw ValidationError.field('url', messages.duplicate);
        if (feeds.length >= MAX_FEEDS_PER_MEMBER) throw ValidationError.field('url', messages.tooMany);
        const now = ctx.now();
        return feedDto(await insertFeed(trx, memberId, url, now));
      });
    },
    async remove(memberId: number, id: number): Promise<void> {
      await own(memberId, id);
      // Its submissions stay with staff (calendar_feed_events goes, events.id is kept).
      await deleteFeed(db, memberId, id);
    },
    async checkNow(memberId: number, id: number): Promise<{ feed: CalendarFeedDTO; outcome: SyncOutcome }> {
      await own(memberId, id);
      const outcome = await syncFeed(ctx, id);
      return { feed: feedDto(await own(memberId, id)), outcome };
    },
  };
}

export type CalendarFeedsService = ReturnType<typeof createCalendarFeedsService>;
