import { absoluteUrl } from '../../../shared/urls';
import { eventPath } from '../events/serialize';
import type { IcsEvent } from './ics';

// A private feed of a member's saved events at /calendar/{token}.ics, for any calendar app to
// subscribe to: its links and its VEVENTs (which the member's data export writes too). The
// service (service.ts) keeps the token: the only key (43 random characters); rotating it
// revokes the old URL at once, and revoking clears it.

export const ICS_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
/** Occurrences that ended more than this long ago drop out of the feed. */
export const PAST_DAYS = 30;
/** A feed never lists more than this many occurrences. */
export const MAX_FEED_OCCURRENCES = 2000;

export interface IcsFeedLink {
  url: string | null;
  webcal_url: string | null;
}

export function feedLink(siteUrl: string, token: string | null): IcsFeedLink {
  if (!token) return { url: null, webcal_url: null };
  const url = `${siteUrl}/calendar/${token}.ics`;
  return { url, webcal_url: url.replace(/^https?:/, 'webcal:') };
}

export interface OccurrenceRow {
  id: number;
  slug: string;
  title: string;
  description: string | null;
  venue_name: string | null;
  address: string | null;
  starts_at: Date | string;
  ends_at: Date | string | null;
  all_day: boolean;
  local_date: string;
}

/** One occurrence of an event as a VEVENT: the feed and the member's data export write the same. */
export function occurrenceIcsEvent(r: OccurrenceRow, siteUrl: string, host: string): IcsEvent {
  const start = new Date(r.starts_at);
  const url = absoluteUrl(siteUrl, eventPath(r));
  return {
    // Stable per occurrence, so apps update rather than duplicate on each refresh.
    uid: `event-${r.id}-${start.getTime() / 1000}@${host}`,
    start,
    end: r.ends_at ? new Date(r.ends_at) : null,
    allDay: r.all_day ? { date: r.local_date } : undefined,
    summary: r.title,
    description: [String(r.description ?? '').slice(0, 2000), url].filter(Boolean).join('\n\n'),
    location: [r.venue_name, r.address].filter(Boolean).join(', ') || undefined,
    url,
  };
}
