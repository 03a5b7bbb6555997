import type { AppContext } from '../../context';
import { syncBookmarkToCalendar } from '../calendar/sync';

// Saving an event with add_to_calendar asks the calendar app to copy it into the member's
// Google Calendar (server/apps/calendar/sync.ts). Bookmarks call it through this hook so that
// tests can put a fake in its place without a Google.

/** What bookmarks need to know of the calendar's answer; other statuses keep the bookmark. */
export type CalendarSyncResult =
  | { status: 'needs_authorization'; authorization_url: string }
  | { status: 'synced' | 'disabled' | 'failed' };

export type CalendarSync = (ctx: AppContext, memberId: number, eventId: number) => Promise<CalendarSyncResult>;

/** An AppContext may carry its own hook (tests do); otherwise the calendar app's is used. */
export type WithCalendarSync = AppContext & { calendarSync?: CalendarSync };

/** The hook for this context, or null when calendar sync is off (no GOOGLE_CLIENT_ID). */
export function calendarSyncFor(ctx: WithCalendarSync): CalendarSync | null {
  if (!ctx.config.google.clientId) return null;
  return ctx.calendarSync ?? syncBookmarkToCalendar;
}
