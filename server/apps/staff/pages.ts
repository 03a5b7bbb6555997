import { Router, type Request } from 'express';
import type { AppContext } from '../../context';
import { requireStaffPage } from '../../http/auth-guards';
import { staffBadgeCounts, staffMenu } from '../../http/staff-menu';
import { NotFoundError, ValidationError, type FieldErrors } from '../../http/errors';
import { formBodyOf, idParam, validate } from '../../http/validate';
import { PageRedirect, page, type PageView } from '../../http/pages/page-view';
import { pagesOrFirstPage, pageWindow } from '../../http/pages/page-param';
import { listPendingEvents } from '../event-submissions/moderation';
import { recentStaffActions, staffActorOf } from '../staff-audit/audit-log';
import { markContactMessageHandled, MESSAGES_PER_PAGE, recentContactMessages } from './contact-messages';
import { moderatePendingEvents, type ModerationResult } from './event-queue';
import { PHOTOS_PER_PAGE, recentListingPhotos, removeListingPhoto } from './listing-photos';
import { accessibilityDecisionSchema, bulkModerationFormSchema, moderationFormSchema, NOTE_MAX, photoRemovalFormSchema, queueNoticeSchema } from './schemas';
import { accessibilityQueue, decideAccessibility, QUEUE_GROUPS_PER_PAGE } from './accessibility-reports';
import { purgeListingAccessibilityPages } from '../accessibility/purge-pages';

// The staff area (/staff/): server-rendered pages that work without JavaScript, for staff
// accounts only (requireStaffPage: guests to the login page, members a 403 page). Every action
// is a POST form carrying the CSRF token (checked app-wide before any route), written to the
// audit log in the action's own transaction, and answered with a redirect (303) so a reload
// never repeats it.



/** Where the queue says what was decided (and whether the members were emailed). */
function queueNoticeUrl(done: ModerationResult): string {
  const count = done.ids.length > 1 ? `&count=${done.ids.length}` : '';
  return `/staff/events/?done=${done.status}&event=${done.ids[0]}${count}&mail=${done.mail}`;
}

export function staffPages(ctx: AppContext): Router {
  const router = Router();
  const staff = requireStaffPage;
  const staffView = (template: string, req: Request, data: Record<string, unknown>): PageView => ({ template, ...staffMenu(ctx, req.path), ...data });

  // Each queue's section counts what waits in it (staff/sections.ts and the other apps' sections).
  router.get('/staff/', staff, page('private', async (req) => staffView('staff/index.njk', req, { pageTitle: 'Staff', counts: await staffBadgeCounts(ctx) })));

  // ## The pending-events queue
  /** A refused decision: for one event (eventId) or for the bulk form (eventId null). */
  type QueueErrors = { eventId: number | null; fields: FieldErrors; values: Record<string, unknown> };
  const queuePage = async (req: Request, errors: QueueErrors | null = null): Promise<PageView> => {
    const events = await listPendingEvents(ctx.db);
    const notice = queueNoticeSchema.safeParse(req.query);
    return staffView('staff/events.njk', req, {
      pageTitle: 'Pending events',
      events,
      noteMax: NOTE_MAX,
      errors,
      // CASE: a refused bulk decision keeps the ticks, so staff fix the note and send again.
      selectedIds: errors && errors.eventId === null ? ([] as unknown[]).concat(errors.values.ids ?? []).map(String) : [],
      notice: notice.success && !errors ? { ...notice.data, title: (await ctx.db('events').where({ id: notice.data.event }).first('title'))?.title ?? `#${notice.data.event}` } : null,
    });
  };
  router.get('/staff/events/', staff, page('private', (req) => queuePage(req)));
  router.post('/staff/events/:id/moderate/', staff, page('private', async (req, res) => {
    const id = idParam(req.params.id);
    let form;
    try {
      form = validate(moderationFormSchema, formBodyOf(req.body));
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      // CASE: without JavaScript the queue comes back with the message beside that event's note.
      res.status(400);
      return queuePage(req, { eventId: id, fields: err.fields, values: formBodyOf(req.body) });
    }
    return new PageRedirect(queueNoticeUrl(await moderatePendingEvents(ctx, staffActorOf(req), [id], form.decision, form.note)), 303);
  }));
  // Several at once: the queue's checkboxes join this one form (works without JavaScript).
  router.post('/staff/events/bulk/', staff, page('private', async (req, res) => {
    let form;
    try {
      form = validate(bulkModerationFormSchema, formBodyOf(req.body));
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      res.status(400);
      return queuePage(req, { eventId: null, fields: err.fields, values: formBodyOf(req.body) });
    }
    return new PageRedirect(queueNoticeUrl(await moderatePendingEvents(ctx, staffActorOf(req), form.ids, form.decision, form.note)), 303);
  }));

  // ## Recent listing photos
  /** A refused removal: the photo's form shows why, with the reason typed kept. */
  type PhotoErrors = { photoId: number; fields: FieldErrors; values: Record<string, unknown> };
  const photosPage = async (req: Request, errors: PhotoErrors | null = null): Promise<PageView> => {
    const window = pageWindow(req, PHOTOS_PER_PAGE);
    const { count, photos } = await recentListingPhotos(ctx.db, window);
    const pages = pagesOrFirstPage(req, window.page, count, PHOTOS_PER_PAGE);
    const removed = typeof req.query.removed === 'string' && /^\d{1,9}$/.test(req.query.removed) ? req.query.removed : null;
    return staffView('staff/photos.njk', req, { pageTitle: 'Listing photos', photos, count, page: window.page, pages, removed: errors ? null : removed, errors });
  };
  router.get('/staff/photos/', staff, page('private', (req) => photosPage(req)));
  router.post('/staff/photos/:id/remove/', staff, page('private', async (req, res) => {
    const id = idParam(req.params.id);
    let form;
    try {
      form = validate(photoRemovalFormSchema, formBodyOf(req.body));
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      // A photo that is gone is a 404 whatever the form says; a valid form finds that out
      // in the removal itself, with no query before it.
      if (!(await ctx.db('photos').where({ id }).first('id'))) throw new NotFoundError();
      res.status(400);
      return photosPage(req, { photoId: id, fields: err.fields, values: formBodyOf(req.body) });
    }
    await removeListingPhoto(ctx, staffActorOf(req), id, form.note);
    return new PageRedirect(`/staff/photos/?removed=${id}`, 303);
  }));

  // ## Contact messages
  router.get('/staff/contact/', staff, page('private', async (req) => {
    const window = pageWindow(req, MESSAGES_PER_PAGE);
    const { count, open, messages } = await recentContactMessages(ctx.db, window);
    const pages = pagesOrFirstPage(req, window.page, count, MESSAGES_PER_PAGE);
    return staffView('staff/contact.njk', req, { pageTitle: 'Contact messages', messages, count, open, page: window.page, pages });
  }));
  router.post('/staff/contact/:id/handled/', staff, page('private', async (req) => {
    const id = idParam(req.params.id);
    await markContactMessageHandled(ctx.db, staffActorOf(req), id, ctx.now());
    return new PageRedirect(`/staff/contact/#message-${id}`, 303);
  }));

  // ## Accessibility reports: the queue, and verifying an attribute
  type AccessibilityErrors = { key: string; fields: FieldErrors; values: Record<string, unknown> };
  const accessibilityPage = async (req: Request, errors: AccessibilityErrors | null = null): Promise<PageView> => {
    const window = pageWindow(req, QUEUE_GROUPS_PER_PAGE);
    const { count, groups } = await accessibilityQueue(ctx.db, window);
    const pages = pagesOrFirstPage(req, window.page, count, QUEUE_GROUPS_PER_PAGE);
    const done = typeof req.query.done === 'string' && /^(yes|no|clear|dismiss)$/.test(req.query.done) ? req.query.done : null;
    return staffView('staff/accessibility.njk', req, { pageTitle: 'Accessibility reports', groups, count, page: window.page, pages, done: errors ? null : done, errors, noteMax: NOTE_MAX });
  };
  router.get('/staff/accessibility/', staff, page('private', (req) => accessibilityPage(req)));
  router.post('/staff/accessibility/decide/', staff, page('private', async (req, res) => {
    let form;
    try {
      form = validate(accessibilityDecisionSchema, formBodyOf(req.body));
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      res.status(400);
      const v = formBodyOf(req.body);
      return accessibilityPage(req, { key: `${String(v.listing)}-${String(v.attribute)}`, fields: err.fields, values: v });
    }
    await decideAccessibility(ctx.db, staffActorOf(req), form.listing, form.attribute, form.decision, form.note, ctx.now());
    await purgeListingAccessibilityPages(ctx.db, res, form.listing);
    return new PageRedirect(`/staff/accessibility/?done=${form.decision}`, 303);
  }));

  // ## The audit log
  router.get('/staff/audit/', staff, page('private', async (req) => {
    const entries = await recentStaffActions(ctx.db, { limit: 100 });
    return staffView('staff/audit.njk', req, { pageTitle: 'Audit log', entries });
  }));
  return router;
}
