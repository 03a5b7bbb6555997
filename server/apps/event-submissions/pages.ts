import { Router, type NextFunction, type Request, type Response } from 'express';
import moment from 'moment-timezone';
import type { AppContext } from '../../context';
import { memberId, requireMemberPage, requireStaffPage } from '../../http/auth-guards';
import { HttpError, InsufficientStorageError, NotAuthenticatedError, NotFoundError, ValidationError } from '../../http/errors';
import { STORAGE_FULL_LOG } from '../../http/error-handler';
import { isStorageFull } from '../../storage/storage-full';
import { nullCharacterErrors } from '../../http/null-characters';
import { list, text, type RawForm } from './form';
import type { EventSubmissionService } from './service';
import { addIsland } from '../../views';
import { closeUnlessBodyRead, eventFormBody } from './body-parser-middleware';
import type { RequestRules } from '../../http/request-rules';
import { eventKeys } from '../../http/surrogate-keys';
import { urls } from '../../../shared/urls';
import { staffActorOf } from '../staff-audit/audit-log-queries';
import { idParam } from '../../http/validate';
import { editableEvent, type EditableEvent } from './staff-event-queries';
import { eventFormValues } from './staff-event-form';
import { staffMenu, type StaffSection } from '../../http/staff-menu';
import { page } from '../../http/pages/page-view';
import { pagesOrFirstPage, pageWindow } from '../../http/pages/page-param';
import { validate } from '../../http/validate';
import { publishedEvents, PUBLISHED_EVENT_TABS } from '../events/staff-list-queries';
import { scheduleWordsFor } from '../events/queries';
import { z } from 'zod';

/**
 * The add-event form without JavaScript sends its CSRF token as the multipart body's first
 * field, which its route's streaming parser checks before reading on (eventFormBody in
 * body-parser-middleware.ts), after the session and the member check.
 */
export const eventSubmissionRequestRules: Partial<RequestRules> = { multipartFirstField: ['/events/add/', '/staff/events/new/', '/staff/events/edit/'] };

/** Staff's add-event form: the member form, published at once (issue 39). */
export const STAFF_EVENT_PATH = '/staff/events/new/';
/** Where staff's change to an event is posted (the event's id is a field: a multipart form's token check is by exact path). */
export const STAFF_EVENT_EDIT_PATH = '/staff/events/edit/';

/** Staff's list of published events, upcoming or past, by title (the queue is /staff/events/). */
export const PUBLISHED_EVENTS_PATH = '/staff/events/published/';
const PUBLISHED_PER_PAGE = 50;

/** The published events' section of the staff menu. */
export const publishedEventsStaffSection: StaffSection = {
  href: PUBLISHED_EVENTS_PATH,
  title: 'Published events',
  text: 'Every published event, upcoming or past: find one by its title and edit it.',
};

const SEARCH_MAX = 100;
/** The list's filters: a bad tab or a repeated parameter is a 400 naming it. */
const publishedFiltersSchema = z.object({
  q: z.string({ message: 'Not a valid string.' }).optional().transform((v) => (v ?? '').trim().slice(0, SEARCH_MAX)),
  tab: z.enum(PUBLISHED_EVENT_TABS, { message: `Select a valid choice: ${PUBLISHED_EVENT_TABS.join(', ')}.` }).optional().default('upcoming'),
});

export const SUCCESS_PATH = '/events/add/success/';
/** Blank irregular rows shown without JavaScript (the island adds rows itself). */
const BLANK_IRREGULAR_ROWS = 3;

/** The island asks for JSON; a plain form post gets HTML. */
function wantsJson(req: Request): boolean {
  return req.xhr || /application\/json/i.test(req.get('accept') ?? '');
}

// ## Event submission (spec 1 §2 "Add-event form"): members only, multipart with the CSRF token
// in the X-CSRFToken header (the island) or as the form's first field (no JavaScript: checked
// by eventFormBody before it reads the rest). A guest's or refused body is never read.
export function eventSubmissionPages(ctx: AppContext, submissions: EventSubmissionService): Router {
  const router = Router();
  const eventsOn = (_req: Request, _res: Response, next: NextFunction) => next(ctx.config.flags.events ? undefined : new NotFoundError());
  const membersOnly = (req: Request, res: Response, next: NextFunction) => {
    if (req.user) return next();
    if (wantsJson(req)) return sendJsonError(res, new NotAuthenticatedError());
    requireMemberPage(req, res, next);
  };

  router.get('/events/add/', eventsOn, requireMemberPage, (_req, res) => renderForm(ctx, res, 200, {}, {}));
  router.post('/events/add/', closeUnlessBodyRead, eventsOn, membersOnly, ...eventFormBody, async (req: Request, res: Response) => submit(ctx, submissions, req, res), islandErrors);
  router.get(SUCCESS_PATH, eventsOn, requireMemberPage, (_req, res) => res.render('event-submissions/success.njk', { pageTitle: 'Event submitted' }));

  // Staff add an event with the same form (fields, schedules, checks), without the island (it
  // posts to the member route), and it is published at once: no queue, an audit entry instead.
  router.get(STAFF_EVENT_PATH, eventsOn, requireStaffPage, (_req, res) => renderForm(ctx, res, 200, {}, {}, true));
  router.post(STAFF_EVENT_PATH, closeUnlessBodyRead, eventsOn, requireStaffPage, ...eventFormBody, async (req: Request, res: Response) => publish(ctx, submissions, req, res));
  router.get(PUBLISHED_EVENTS_PATH, eventsOn, requireStaffPage, page('private', async (req) => {
    const query = req.query as Record<string, unknown>;
    const filters = validate(publishedFiltersSchema, { q: query.q, tab: query.tab === '' ? undefined : query.tab });
    const window = pageWindow(req, PUBLISHED_PER_PAGE);
    const now = ctx.now();
    const { rows, count } = await publishedEvents(ctx.db, filters, now, window);
    const pages = pagesOrFirstPage(req, window.page, count, PUBLISHED_PER_PAGE);
    const words = await scheduleWordsFor(ctx.db, rows.map((r) => r.id), now, ctx.config.city.timeZone);
    const started = (r: (typeof rows)[number]) => r.start_date_time !== null && new Date(r.start_date_time) <= now;
    const keep = new URLSearchParams({ ...(filters.q ? { q: filters.q } : {}), ...(filters.tab === 'past' ? { tab: 'past' } : {}) });
    return {
      template: 'event-submissions/published.njk',
      ...staffMenu(ctx, PUBLISHED_EVENTS_PATH),
      pageTitle: 'Published events',
      events: rows.map((r) => ({
        ...r,
        schedule: words.get(r.id) ?? '',
        status: filters.tab === 'past' ? 'Ended' : started(r) ? 'On now' : 'Upcoming',
        editUrl: `/staff/events/${r.id}/edit/`,
        publicUrl: urls.event(r.slug, r.id),
      })),
      count,
      page: window.page,
      pages,
      filters,
      query: keep.toString(),
      path: PUBLISHED_EVENTS_PATH,
    };
  }));
  router.get('/staff/events/:id/edit/', eventsOn, requireStaffPage, async (req: Request, res: Response, next: NextFunction) => {
    const event = await editableEvent(ctx.db, idParam(req.params.id));
    if (!event) return next(new NotFoundError());
    renderForm(ctx, res, 200, eventFormValues(event, ctx.config.city.timeZone), {}, true, event);
  });
  router.post(STAFF_EVENT_EDIT_PATH, closeUnlessBodyRead, eventsOn, requireStaffPage, ...eventFormBody, async (req: Request, res: Response, next: NextFunction) => {
    const raw = (req.body ?? {}) as RawForm;
    const event = /^\d{1,9}$/.test(text(raw, 'event_id')) ? await editableEvent(ctx.db, Number(text(raw, 'event_id'))) : undefined;
    if (!event) return next(new NotFoundError());
    try {
      const nul = nullCharacterErrors(raw);
      if (Object.keys(nul).length) throw new ValidationError(nul);
      const saved = await submissions.update(staffActorOf(req), event.id, event.start_date, raw, req.file);
      const page = urls.event(saved.slug, saved.id);
      await ctx.changes.announce({ subject: `event:${saved.id}`, paths: [...new Set([page, urls.event(saved.before, saved.id)]), '/events/', '/'], keys: eventKeys([saved.id]) });
      res.redirect(303, page);
    } catch (err) {
      if (isStorageFull(err)) {
        ctx.logger.error({ err, url: req.originalUrl }, STORAGE_FULL_LOG);
        const full = new InsufficientStorageError();
        return renderForm(ctx, res, full.status, raw, { non_field_errors: [full.message] }, true, event);
      }
      if (!(err instanceof ValidationError)) throw err;
      renderForm(ctx, res, 400, raw, err.fields, true, event);
    }
  });
  return router;
}

async function publish(ctx: AppContext, submissions: EventSubmissionService, req: Request, res: Response): Promise<void> {
  const raw = (req.body ?? {}) as RawForm;
  try {
    const nul = nullCharacterErrors(raw);
    if (Object.keys(nul).length) throw new ValidationError(nul);
    const event = await submissions.publish(staffActorOf(req), raw, req.file);
    // After the commit: the event's page, every list of events and the home (upcoming events).
    const page = urls.event(event.slug, event.id);
    await ctx.changes.announce({ subject: `event:${event.id}`, paths: [page, '/events/', '/'], keys: eventKeys([event.id]) });
    res.redirect(303, page);
  } catch (err) {
    if (isStorageFull(err)) {
      ctx.logger.error({ err, url: req.originalUrl }, STORAGE_FULL_LOG);
      const full = new InsufficientStorageError();
      return renderForm(ctx, res, full.status, raw, { non_field_errors: [full.message] }, true);
    }
    if (!(err instanceof ValidationError)) throw err;
    renderForm(ctx, res, 400, raw, err.fields, true);
  }
}

async function submit(ctx: AppContext, submissions: EventSubmissionService, req: Request, res: Response): Promise<void> {
  const raw = (req.body ?? {}) as RawForm;
  try {
    // A multipart body is not checked app-wide (see http/null-characters.ts).
    const nul = nullCharacterErrors(raw);
    if (Object.keys(nul).length) throw new ValidationError(nul);
    const event = await submissions.submit(memberId(req), raw, req.file);
    if (wantsJson(req)) {
      res.status(201).json({ ...event, success_url: SUCCESS_PATH });
      return;
    }
    res.redirect(303, SUCCESS_PATH);
  } catch (err) {
    if (isStorageFull(err)) {
      // CASE: the media disk is full: nothing was saved; the form comes back saying so.
      ctx.logger.error({ err, url: req.originalUrl }, STORAGE_FULL_LOG);
      const full = new InsufficientStorageError();
      if (wantsJson(req)) return sendJsonError(res, full);
      return renderForm(ctx, res, full.status, raw, { non_field_errors: [full.message] });
    }
    if (!(err instanceof ValidationError)) throw err;
    if (wantsJson(req)) return sendJsonError(res, err);
    // CASE: without JavaScript the form comes back with its values and the messages beside them.
    renderForm(ctx, res, 400, raw, err.fields);
  }
}

/** A refused or unreadable body (403, 400, 413) is answered to the island in JSON too. */
function islandErrors(err: unknown, req: Request, res: Response, next: NextFunction): void {
  if (err instanceof HttpError && err.status < 500 && wantsJson(req)) return sendJsonError(res, err);
  next(err);
}

/** The error handler answers JSON only under /api/; this page answers the island in JSON too. */
function sendJsonError(res: Response, err: HttpError): void {
  res.status(err.status).set('Cache-Control', 'no-store').json(err.toJSON());
}

function renderForm(ctx: AppContext, res: Response, status: number, raw: RawForm, errors: Record<string, string[]>, staff = false, editing: EditableEvent | null = null): void {
  const values: Record<string, string> = {};
  for (const name of Object.keys(raw)) if (name !== 'csrfmiddlewaretoken') values[name] = text(raw, name);
  const posted = Number(values['irregular-TOTAL_FORMS'] ?? 0);
  const rows = Math.max(BLANK_IRREGULAR_ROWS, Number.isInteger(posted) ? Math.min(posted, 100) : 0);
  // Default times as the form's pickers start: the next hour plus one, ending two hours later.
  const now = moment.tz(ctx.now(), ctx.config.city.timeZone);
  const start = now.clone().startOf('hour').add(1, 'hour');
  const defaults = { startTime: start.format('h:mm A'), endTime: start.clone().add(2, 'hours').format('h:mm A') };
  const fieldErrors = Object.keys(errors).length ? errors : null;
  // The event-form island renders the same form, enhanced, from the same values and errors
  // (members only: it posts to /events/add/).
  if (!staff) addIsland(res, 'event-form', {
    csrfToken: String(res.locals.csrfToken ?? ''),
    city: ctx.config.city.name,
    values,
    weekdays: list(raw, 'weekly-weekdays'),
    errors: fieldErrors,
    irregularRows: rows,
    defaults,
  });
  res.status(status).render('event-submissions/form.njk', {
    pageTitle: editing ? `Edit ${editing.title} – Staff` : staff ? 'Publish an event – Staff' : 'Add an event',
    staff,
    editing: editing ? { id: editing.id, url: urls.event(editing.slug, editing.id), title: editing.title } : null,
    formAction: editing ? STAFF_EVENT_EDIT_PATH : staff ? STAFF_EVENT_PATH : '/events/add/',
    values,
    weekdays: list(raw, 'weekly-weekdays'),
    errors: fieldErrors,
    irregularRows: Array.from({ length: rows }, (_, i) => i),
    defaults,
  });
}
