import { Router, type Request } from 'express';
import type { AppContext } from '../../context';
import { requireStaffPage } from '../../http/auth-guards';
import { staffBadgeCounts, staffMenu } from '../../http/staff-menu';
import { NotFoundError, type FieldErrors } from '../../http/errors';
import { formBodyOf, idParam } from '../../http/validate';
import { PageRedirect, page, type PageView } from '../../http/pages/page-view';
import { formPost } from '../../http/pages/form-post';
import { pagesOrFirstPage, pageWindow } from '../../http/pages/page-param';
import { listPendingEvents } from '../event-submissions/moderation-queries';
import { recentStaffActions, staffActorOf } from '../staff-audit/audit-log-queries';
import { markContactMessageHandled, MESSAGES_PER_PAGE, recentContactMessages } from './contact-message-queries';
import { eventTitle, moderatePendingEvents, type ModerationResult } from './event-queue-queries';
import { listingPhotoExists, PHOTOS_PER_PAGE, recentListingPhotos, removeListingPhoto } from './listing-photo-queries';
import { accessibilityDecisionSchema, bulkModerationFormSchema, moderationFormSchema, NOTE_MAX, photoRemovalFormSchema, queueNoticeSchema } from './schemas';
import { accessibilityQueue, decideAccessibility, QUEUE_GROUPS_PER_PAGE } from './accessibility-report-queries';
import { purgeListingAccessibilityPages } from '../accessibility/purge-pages';
import { photoPlace } from '../photos/queries';
import { photoChange } from '../photos/photo-change';
import { eventKeys } from '../../http/surrogate-keys';

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

  // Each queue's section counts what waits in it (staff/staff-menus.ts and the other apps' sections).
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
      notice: notice.success && !errors ? { ...notice.data, title: (await eventTitle(ctx.db, notice.data.event)) ?? `#${notice.data.event}` } : null,
    });
  };
  router.get('/staff/events/', staff, page('private', (req) => queuePage(req)));
  /**
   * An approved event shows on many lists (the events hub, the home, calendars, search): every
   * process forgets the kept pages naming the events or any list of events, and so does the edge.
   */
  const moderated = async (done: ModerationResult): Promise<PageRedirect> => {
    if (done.status === 'approved' && done.ids.length) await ctx.changes.announce({ subject: `events:${done.ids.join(',')}`, paths: [], keys: eventKeys(done.ids) });
    return new PageRedirect(queueNoticeUrl(done), 303);
  };
  router.post('/staff/events/:id/moderate/', staff, page('private', async (req, res) => {
    const id = idParam(req.params.id);
    return formPost(res, {
      schema: moderationFormSchema,
      body: formBodyOf(req.body),
      valid: async (form) => moderated(await moderatePendingEvents(ctx, staffActorOf(req), [id], form.decision, form.note)),
      // CASE: without JavaScript the queue comes back with the message beside that event's note.
      invalid: (fields, values) => queuePage(req, { eventId: id, fields, values }),
    });
  }));
  // Several at once: the queue's checkboxes join this one form (works without JavaScript).
  router.post('/staff/events/bulk/', staff, page('private', async (req, res) => {
    return formPost(res, {
      schema: bulkModerationFormSchema,
      body: formBodyOf(req.body),
      valid: async (form) => moderated(await moderatePendingEvents(ctx, staffActorOf(req), form.ids, form.decision, form.note)),
      invalid: (fields, values) => queuePage(req, { eventId: null, fields, values }),
    });
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
    return formPost(res, {
      schema: photoRemovalFormSchema,
      body: formBodyOf(req.body),
      valid: async (form) => {
        const place = await photoPlace(ctx.db, id);
        await removeListingPhoto(ctx, staffActorOf(req), id, form.note);
        await ctx.changes.announce(photoChange(id, place));
        return new PageRedirect(`/staff/photos/?removed=${id}`, 303);
      },
      invalid: async (fields, values) => {
        // A photo that is gone is a 404 whatever the form says; a valid form finds that out
        // in the removal itself, with no query before it.
        if (!(await listingPhotoExists(ctx.db, id))) throw new NotFoundError();
        return photosPage(req, { photoId: id, fields, values });
      },
    });
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
    return formPost(res, {
      schema: accessibilityDecisionSchema,
      body: formBodyOf(req.body),
      valid: async (form) => {
        await decideAccessibility(ctx.db, staffActorOf(req), form.listing, form.attribute, form.decision, form.note, ctx.now());
        await purgeListingAccessibilityPages(ctx, form.listing);
        return new PageRedirect(`/staff/accessibility/?done=${form.decision}`, 303);
      },
      invalid: (fields, values) => accessibilityPage(req, { key: `${String(values.listing)}-${String(values.attribute)}`, fields, values }),
    });
  }));

  // ## The audit log
  router.get('/staff/audit/', staff, page('private', async (req) => {
    const entries = await recentStaffActions(ctx.db, { limit: 100 });
    return staffView('staff/audit.njk', req, { pageTitle: 'Audit log', entries });
  }));
  return router;
}
