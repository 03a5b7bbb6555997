import type { EventDTO } from './dto';

// What the events hub page prints for its island (server/apps/events/pages.ts →
// islands/events-hub): the day shown, the city's today, and the events the page rendered.

/**
 * An event as the hub shows it: the card's fields of the medium bundle, with its schedule in
 * words when the page had it. The page's state carries these only (not the whole bundle: it
 * was most of the page's initial state, and parsing it was part of the load's work).
 */
export type HubEvent = Pick<EventDTO, 'id' | 'title' | 'share_url' | 'image_url' | 'start_date_time' | 'all_day' | 'venue_name'> & { schedule?: string };

/** The card's fields of an event, as the page's state carries them. */
export function hubEvent(e: EventDTO, schedule: string): HubEvent {
  return { id: e.id, title: e.title, share_url: e.share_url, image_url: e.image_url, start_date_time: e.start_date_time, all_day: e.all_day, venue_name: e.venue_name, schedule };
}

export interface EventsHubInitialState {
  /** YYYY-MM-DD, or null for the upcoming events. */
  date: string | null;
  /** Today in the city (YYYY-MM-DD). */
  today: string;
  /** The offset of the first event the page rendered (above 0 on ?page=2 and later). */
  offset: number;
  count: number;
  results: HubEvent[];
  /** Whether to offer the add-event link. */
  canAdd: boolean;
}

/** YYYY-MM-DD plus `days`, on the calendar (no time zone involved). */
export function shiftDay(date: string, days: number): string {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** 'Tuesday, November 24, 2026' for YYYY-MM-DD, as the server's dayLabel. */
export function dayLabel(date: string): string {
  return new Intl.DateTimeFormat('en-US', { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${date}T12:00:00Z`));
}

export function isDay(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) === value;
}
