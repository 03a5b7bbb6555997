import type { Knex } from 'knex';
import moment from 'moment-timezone';

// Impressions and clicks, one row per ad and day (house_ad_daily_counts). Only the number
// grows: nothing about the visitor is read or kept.

/** Today as YYYY-MM-DD in the city's time zone (an ad's dates and counters are the city's days). */
export function cityDay(now: Date, timeZone: string): string {
  return moment.tz(now, timeZone).format('YYYY-MM-DD');
}

export type AdEvent = 'impressions' | 'clicks';

/** Adds one to today's counter of an ad; one statement, safe under concurrent requests. */
export async function countAdEvent(db: Knex, adId: number, day: string, event: AdEvent): Promise<void> {
  await db.raw(
    `INSERT INTO house_ad_daily_counts (ad_id, day, ${event}) VALUES (?, ?, 1)
     ON CONFLICT (ad_id, day) DO UPDATE SET ${event} = house_ad_daily_counts.${event} + 1`,
    [adId, day],
  );
}

export interface DailyCount {
  day: string;
  impressions: number;
  clicks: number;
}

/** An ad's counters, newest day first. */
export async function dailyCounts(db: Knex, adId: number, limit = 60): Promise<DailyCount[]> {
  const rows: Array<{ day: string; impressions: number | string; clicks: number | string }> = await db('house_ad_daily_counts')
    .where({ ad_id: adId })
    .orderBy('day', 'desc')
    .limit(limit)
    .select(db.raw(`to_char(day, 'YYYY-MM-DD') as day`), 'impressions', 'clicks');
  return rows.map((r) => ({ day: r.day, impressions: Number(r.impressions), clicks: Number(r.clicks) }));
}

/** Every ad's totals, by id. */
export async function totalCounts(db: Knex): Promise<Map<number, { impressions: number; clicks: number }>> {
  const rows: Array<{ ad_id: number; impressions: string | number; clicks: string | number }> = await db('house_ad_daily_counts')
    .groupBy('ad_id')
    .select('ad_id', db.raw('sum(impressions) as impressions'), db.raw('sum(clicks) as clicks'));
  return new Map(rows.map((r) => [Number(r.ad_id), { impressions: Number(r.impressions), clicks: Number(r.clicks) }]));
}
