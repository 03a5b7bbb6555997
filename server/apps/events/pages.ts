import { Router, type Request, type Response } from 'express';
import moment from 'moment-timezone';
import type { AppContext } from '../../context';
import { addIsland } from '../../views';
import { addSavesIsland } from '../saves/page-island';
import { idFromSlugSegment, urls } from '../../../shared/urls';
import { ValidationError } from '../../http/errors';
import { page, type PageAnswer, type PageView } from '../../http/pages/page-view';
import { absolute, canonicalRedirect } from '../../http/pages/canonical-url';
import { pagesOrFirstPage, pageWindow } from '../../http/pages/page-param';
import { whenFlag } from '../../http/pages/feature-gate';
import { safeHttpUrl } from '../../http/pages/safe-link';
import { eventsOnDate, upcomingEvents } from './queries';
import { eventDetail, scheduleWordsFor, upcomingOccurrences } from './queries';
import { eventPath, toEventDTO } from './serialize';
import { eventStructuredData } from './structured-data';
import type { EventDTO } from '../../../shared/dto';
import { hubEvent, type EventsHubInitialState } from '../../../shared/events-hub';
import type { NewsletterPromptInitialState } from '../../../shared/newsletter-prompt';
import { addSurrogateKeys, surrogateKeys } from '../../http/surrogate-keys';

// The events hub (upcoming, or one day with ?date=YYYY-MM-DD) and each event's page. Dates and
// times are the city's (Canada/Eastern); schedules are said in words (schedule-words.ts).

const HUB_PAGE_SIZE = 24;
const DETAIL_DATES = 60;

export function eventsPages(ctx: AppContext): Router {
  const router = Router();
  const on = whenFlag(ctx, 'events');
  const shared = 'shared-for-guests';

  // ## Events
  router.get('/events/', on, page(shared, (req, res) => eventsHub(ctx, req, res)));
  router.get('/events/:segment/', on, page(shared, (req, res) => eventPage(ctx, req, res)));

  return router;
}

function dateParam(req: Request): string | undefined {
  const raw = req.query.date;
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw !== 'string' || !moment.utc(raw, 'YYYY-MM-DD', true).isValid()) {
    throw new ValidationError({ date: ['Date has wrong format. Use YYYY-MM-DD.'] });
  }
  return raw;
}

async function eventsHub(ctx: AppContext, req: Request, res: Response): Promise<PageView> {
  const tz = ctx.config.city.timeZone;
  const now = ctx.now();
  const date = dateParam(req);
  const { page, limit, offset } = pageWindow(req, HUB_PAGE_SIZE);
  const params = { limit, offset, ordering: 'start_date_time' as const, bundle_type: 'medium' as const };
  const siteUrl = ctx.config.site.url;
  const result = date ? await eventsOnDate(ctx.dbRead, date, params, siteUrl) : await upcomingEvents(ctx.dbRead, now, params, siteUrl);
  const words = await scheduleWordsFor(ctx.dbRead, result.results.map((e) => e.id), now, tz);
  const today = moment.tz(now, tz).format('YYYY-MM-DD');
  const day = moment.utc(date ?? today, 'YYYY-MM-DD');
  const pages = pagesOrFirstPage(req, page, result.count, HUB_PAGE_SIZE);
  const events = result.results.map((e) => ({ ...e, share_path: eventPath({ slug: e.slug!, id: e.id }), schedule: words.get(e.id) ?? '' }));
  const island: EventsHubInitialState = {
    date: date ?? null,
    today,
    offset,
    count: result.count,
    results: result.results.map((e) => hubEvent(e as EventDTO, words.get(e.id) ?? '')),
    canAdd: ctx.config.flags.events,
  };
  addIsland(res, 'events-hub', island);
  // Upcoming or one day's events: every events' change announces `events`.
  addSurrogateKeys(res, [surrogateKeys.events]);
  addIsland(res, 'newsletter-prompt', { type: 'events' } satisfies NewsletterPromptInitialState);
  return {
    template: 'events/index.njk',
    date,
    dayLabel: date ? day.format('dddd, MMMM D, YYYY') : null,
    today,
    previousDay: day.clone().subtract(1, 'day').format('YYYY-MM-DD'),
    nextDay: day.clone().add(1, 'day').format('YYYY-MM-DD'),
    events,
    count: result.count,
    page,
    pages,
    pageQuery: date ? `date=${date}` : '',
    pageTitle: date ? `Events on ${day.format('MMMM D, YYYY')}` : `Events in ${ctx.config.city.name}`,
    pageDescription: `Things to do in ${ctx.config.city.name}${date ? ` on ${day.format('dddd, MMMM D')}` : ''}: festivals, concerts, markets, library programs and more.`,
    canonicalUrl: absolute(ctx, '/events/') + (date ? `?date=${date}` : ''),
  };
}

async function eventPage(ctx: AppContext, req: Request, res: Response): Promise<PageAnswer> {
  const id = idFromSlugSegment(String(req.params.segment));
  if (id === null) return null;
  const now = ctx.now();
  const event = await eventDetail(ctx.dbRead, id, now);
  if (!event) return null;
  const moved = canonicalRedirect(req, eventPath(event));
  if (moved) return moved;
  addSurrogateKeys(res, [surrogateKeys.event(event.id)]);
  const tz = ctx.config.city.timeZone;
  const [words, dates] = await Promise.all([scheduleWordsFor(ctx.dbRead, [event.id], now, tz), upcomingOccurrences(ctx.dbRead, event.id, now, DETAIL_DATES)]);
  const dto = toEventDTO(event, ctx.config.site.url);
  if (dto.can_be_bookmarked && dates.length) addSavesIsland(ctx, req, res, ['eventBookmarks']);
  return {
    template: 'events/detail.njk',
    event,
    dto,
    schedule: words.get(event.id) ?? '',
    dates,
    isPast: dates.length === 0,
    website: safeHttpUrl(event.website),
    imageSourceUrl: safeHttpUrl(event.image_source_url),
    structuredData: eventStructuredData(event, dto, ctx.config.site.url),
    pageTitle: event.title,
    pageDescription: event.description ? event.description.slice(0, 200) : `${event.title} at ${event.venue_name || 'various venues'}, ${ctx.config.city.name}.`,
    canonicalUrl: absolute(ctx, urls.event(event.slug, event.id)),
  };
}
