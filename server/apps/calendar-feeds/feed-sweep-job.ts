import type { AppContext } from '../../context';
import { syncDueFeeds } from './feed-sync-queries';

/**
 * When the job queue looks for feeds that are due: every five minutes (a cron line, run once
 * across all processes). Each feed is fetched every CALENDAR_FEEDS_INTERVAL_MINUTES
 * (config.calendarFeeds.intervalMinutes, 60 by default); the sweep only finds the ones whose
 * time has come, claiming each so two sweeps never share one.
 */
export const FEED_SWEEP_CRON = '*/5 * * * *';

export async function syncCalendarFeeds(ctx: AppContext): Promise<number> {
  let total = 0;
  // Batches of 20 until none is due, so a backlog clears in one sweep.
  for (let n = await syncDueFeeds(ctx); n > 0; n = await syncDueFeeds(ctx)) total += n;
  return total;
}
