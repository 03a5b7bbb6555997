import moment from 'moment-timezone';
import type { StoryDoc } from '../../shared/newsroom';

// What the tests of scheduled publishing across real processes share (newsroom's
// schedule-restart and publish-kill): the city's time zone, set on every process, and the
// scheduled minute as the staff API takes it.

/** The city's time zone (config TIME_ZONE), set on every process of these tests. */
export const CITY_TZ = 'Canada/Eastern';

/** A story body of one paragraph. */
export const storyDoc = (text: string): StoryDoc => ({ type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text }] }] });

/** The next whole minute at least `leadMs` away. */
export const minuteAfter = (leadMs: number): Date => new Date(Math.ceil((Date.now() + leadMs) / 60_000) * 60_000);

/** A moment as the city's wall clock says it, in the staff API's format ('2026-11-29T13:05'). */
export const cityLocal = (d: Date): string => moment.tz(d, CITY_TZ).format('YYYY-MM-DDTHH:mm');
