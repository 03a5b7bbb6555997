import { Router, type RequestHandler } from 'express';
import type { AppContext, AppMenus, AppServices, SaveKinds } from '../context';
import type { JobPolicy } from '../jobs/queue';
import type { SaveKindName } from '../../shared/save-kinds';
import type { AnySaveKind } from './saves/save-kind';
import { createFavouritesKind } from './favourites/favourites-kind';
import { createTodosKind } from './todos/todos-kind';
import { createRatingsKind } from './ratings/ratings-kind';
import { createArticleBookmarksKind } from './bookmarks/articles-kind';
import { createVideoBookmarksKind } from './bookmarks/videos-kind';
import { createEventBookmarksKind } from './bookmarks/events-kind';
import { healthRouter } from './health/api';
import { createPassport, SESSION_COOKIE, SESSION_TOUCH_INTERVAL_MS, sessionMiddleware } from './accounts/session';
import { navbarLocals } from '../http/navbar';
import { articlesNavbarMenus } from './articles/navbar-menus';
import { listingsNavbarMenus } from './listings/navbar-menus';
import { staffAuditSection, staffQueueSections } from './staff/staff-menus';
import { signedInCookie } from './accounts/signed-in-cookie';
import { AGE_GATE_COOKIE } from './site-pages/age-gate';
import { SIGNED_IN_COOKIE } from '../../shared/constants';
import type { CacheCookies } from '../http/guest-response-cache';
import { requestRules, type RequestRules } from '../http/request-rules';
import { accountsApi } from './accounts/api';
import { createAccountsService } from './accounts/service';
import { createAccountDeletionService } from './account-deletion/service';
import { createImageUploadService } from './uploads/service';
import { createEventSubmissionService } from './event-submissions/service';
import { createPhotosService } from './photos/service';
import { createAvatarService } from './profiles/service';
import { createCalendarFeedsService } from './calendar-feeds/service';
import { createCalendarService, createIcsFeedService, syncBookmarkToCalendar } from './calendar/service';
import { accountsPages } from './accounts/pages';
import { accountDeletionPages } from './account-deletion/pages';
import { purgeDueAccounts } from './account-deletion/purge-job';
import { pendingDeletionNotice } from './account-deletion/pending-notice';
import { profilesApi, profilesRequestRules } from './profiles/api';
import { profilesPages } from './profiles/pages';
import { memberDataRoutes } from './member-data/api';
import { favouritesApi } from './favourites/api';
import { todosApi } from './todos/api';
import { ratingsApi } from './ratings/api';
import { bookmarksApi } from './bookmarks/api';
import { photosApi, photosRequestRules } from './photos/api';
import { mediaApi } from './media/api';
import { createMediaService } from './media/service';
import { uploadsRoutes } from './uploads/api';
import { eventSubmissionPages, eventSubmissionRequestRules, publishedEventsStaffSection } from './event-submissions/pages';
import { calendarApi } from './calendar/api';
import { listingsApi } from './listings/api';
import { createListingsService } from './listings/service';
import { articlesApi } from './articles/api';
import { eventsApi } from './events/api';
import { contestsApi } from './contests/api';
import { videosApi } from './videos/api';
import { neighbourhoodsApi } from './neighbourhoods/api';
import { searchApi } from './search/api';
import { createSearchService } from './search/service';
import { geocoderApi } from './geocoder/api';
import { createGeocoderService } from './geocoder/service';
import { newslettersApi } from './newsletters/api';
import { newslettersPages, newslettersRequestRules } from './newsletters/pages';
import { createNewslettersService } from './newsletters/service';
import { contactPages } from './contact/pages';
import { createContactService } from './contact/service';
import { sitePages } from './site-pages/pages';
import { seoRoutes } from './seo/api';
import { homePages } from './home/pages';
import { createHomeService } from './home/service';
import { searchPages } from './search/pages';
import { articleOldPathRedirects, articlesPages } from './articles/pages';
import { eventsPages } from './events/pages';
import { contestsPages } from './contests/pages';
import { contestsRequestRules, contestsStaffPages, contestsStaffSection } from './contests/pages';
import { videosPages, videosRequestRules, videosStaffPages, videosStaffSection } from './videos/pages';
import { neighbourhoodsPages } from './neighbourhoods/pages';
import { photosPages } from './photos/pages';
import { listingsPages } from './listings/pages';
import { patiosPages } from './patios/pages';
import { photoChallengesPages } from './photo-challenges/pages';
import { mapTilesRoutes } from './map-tiles/api';
import { staffPages } from './staff/pages';
import { jobDeskPages, jobDeskStaffSection } from './job-desk/pages';
import { createJobDeskService } from './job-desk/service';
import { newsroomApi } from './newsroom/api';
import { newsroomPages, newsroomStaffSection } from './newsroom/pages';
import { createNewsroomService, STORY_JOBS } from './newsroom/service';
import { createSharedStories } from './co-editing/live-server';
import { adServingRouter } from './ads/api';
import { adSlotLocals } from './ads/slots';
import { adsRequestRules, adsStaffPages, adsStaffSection } from './ads/pages';
import { bestOfStaffPages, bestOfStaffSection } from './best-of-editing/pages';
import { placeSuggestionsPages, placeSuggestionsStaffSection } from './place-suggestions/pages';
import { createPlaceSuggestionsService } from './place-suggestions/service';
import { placesDeskApi } from './places-desk/api';
import { placesDeskPages, placesDeskStaffSection } from './places-desk/pages';
import { createPlacesDeskService } from './places-desk/service';
import { accessibilityApi } from './accessibility/api';
import { createAccessibilityService } from './accessibility/service';
import { accessibilityPages } from './accessibility/pages';
import { calendarFeedsApi } from './calendar-feeds/api';
import { FEED_SWEEP_CRON, syncCalendarFeeds } from './calendar-feeds/feed-sweep-job';
import { NEWSLETTER_SEND_JOB, runNewsletterSendJob } from './newsletters/newsletter-send-job';
import { runWarmRenditionsJob, WARM_RENDITIONS_JOB } from './media/warm-renditions-job';

/**
 * The six kinds of save, built here and nowhere else: every context gets one set (a server
 * process builds one context), and all that saves, lists, signs in with a pending save or
 * purges an account uses it through ctx.saveKinds. In shared/save-kinds.ts's order.
 */
function buildSaveKinds(): SaveKinds {
  return {
    favourites: createFavouritesKind(),
    todos: createTodosKind(),
    ratings: createRatingsKind(),
    articleBookmarks: createArticleBookmarksKind(),
    videoBookmarks: createVideoBookmarksKind(),
    eventBookmarks: createEventBookmarksKind(),
  } satisfies Record<SaveKindName, AnySaveKind>;
}

/**
 * The site's menus, each app's entries for what it owns, in the order they are shown: the
 * navbar's latest stories and recent reviews (articles) then the listing types (listings);
 * the staff menu's stories (newsroom), queues and photos (staff), published events (event-submissions), contests, house ads, Best of
 * lists, the job queue (job-desk, administrators), and last the audit log (staff). The core
 * renders them (http/navbar.ts, http/staff-menu.ts).
 */
export const appMenus: AppMenus = {
  navbar: [...articlesNavbarMenus, ...listingsNavbarMenus],
  staff: [newsroomStaffSection, ...staffQueueSections, publishedEventsStaffSection, contestsStaffSection, adsStaffSection, bestOfStaffSection, placesDeskStaffSection, placeSuggestionsStaffSection, videosStaffSection, jobDeskStaffSection, staffAuditSection],
};

/**
 * What one app offers another through the context (server/context.ts), so that the one using
 * it needs no import of the one offering it. Whoever builds an AppContext spreads these in,
 * once per context.
 */
export function appServices(getCtx: () => AppContext): AppServices {
  return {
    calendarSync: syncBookmarkToCalendar,
    pendingDeletionNotice,
    saveKinds: buildSaveKinds(),
    menus: appMenus,
    // Live co-editing: its websocket and the newsroom's way into a story's shared document.
    sharedStories: createSharedStories(getCtx),
  };
}

/**
 * The cookies the apps read, for the page cache (server/http/guest-response-cache.ts): the
 * session and the signed-in cookie say who the visitor is, which no shared answer depends on
 * (pages are the same for everybody; personal parts come from the islands); the age gate's
 * answer changes the cannabis pages, so it is part of the cache key. A session needs to go
 * through the session middleware only as often as the store renews its expiry.
 */
export const cacheCookies: CacheCookies = {
  ignored: [SESSION_COOKIE, SIGNED_IN_COOKIE],
  keyed: [AGE_GATE_COOKIE],
  session: { name: SESSION_COOKIE, renewEveryMs: SESSION_TOUCH_INTERVAL_MS },
};

/**
 * What a few apps' routes need of the core's body parsing and CSRF check, each declared beside
 * its routes with the reason (server/http/request-rules.ts): routes that read their own large
 * JSON body, multipart forms whose token is their first field, the CSRF-exempt one-click
 * unsubscribe, and the islands' member request that always issues the CSRF cookie. app.ts
 * applies what it is handed here and names no app path (server/apps/request-rules.test.ts).
 */
export const appRequestRules: RequestRules = requestRules(
  photosRequestRules,
  profilesRequestRules,
  eventSubmissionRequestRules,
  adsRequestRules,
  videosRequestRules,
  contestsRequestRules,
  newslettersRequestRules,
);

/**
 * The middleware apps put into the core's pipeline, by the stage app.ts runs them at. The core
 * imports no app: it runs what this registry hands it.
 */
export interface AppMiddleware {
  /** Before logging, sessions and the database: probes cost one trivial query, and ad requests set no cookie and are not logged. */
  beforeLogging: RequestHandler[];
  /** Sessions in the database, the signed-in member in req.user, and the cookie telling the islands so. */
  session: RequestHandler[];
  /** After the view locals: what every page carries (the navbar's markup and island state, whether it has ad slots). */
  pageLocals: RequestHandler[];
}

export function appMiddleware(ctx: AppContext): AppMiddleware {
  const passport = createPassport(ctx.db);
  return {
    beforeLogging: [healthRouter(ctx), adServingRouter(ctx)],
    session: [sessionMiddleware(ctx.config, ctx.db, ctx.logger), passport.session(), signedInCookie()],
    pageLocals: [navbarLocals(ctx), adSlotLocals(ctx)],
  };
}

/**
 * A job an app runs on the job queue (server/jobs/queue.ts, pg-boss): anything may enqueue it
 * with `ctx.jobs.send(name, data, { startAfter })`; the server process works every entry
 * (server/index.ts). A job runs once across all processes and is retried with backoff when run
 * throws (5 times unless the send says otherwise), so run must be idempotent: a retry, or a
 * process killed mid-job, runs it again. data is what was sent (JSON): check it before use.
 */
export interface AppJob {
  name: string;
  /** How singletonKey deduplicates its sends (server/jobs/queue.ts JobPolicy); standard unless said. */
  policy?: JobPolicy;
  /**
   * Periodic work: a cron line (Canada/Eastern) on which the queue sends this job, once across
   * every process (server/jobs/queue.ts QueueSpec.cron). Give such a job the stately policy, so
   * a run that lasts past the next minute is never doubled, and make it safe to run late or twice.
   */
  cron?: string;
  /** A run not finished after this long is taken as dead and retried (server/jobs/queue.ts QueueSpec.expireInSeconds). */
  expireInSeconds?: number;
  run(ctx: AppContext, data: unknown): Promise<unknown>;
}

/** The apps' jobs; their queues are created when the server starts. */
export const appJobs: AppJob[] = [
  // A scheduled story's publishing, and a published one's scheduled unpublishing (the newsroom).
  // One transaction each, under a second: one still running after a minute died with its process.
  { name: STORY_JOBS.publish, expireInSeconds: 60, run: (ctx, data) => newsroomJob(ctx, data, 'publish') },
  { name: STORY_JOBS.unpublish, expireInSeconds: 60, run: (ctx, data) => newsroomJob(ctx, data, 'unpublish') },
  // Stories whose publishing or unpublishing time has passed and whose job never ran (lost, or
  // sent to a queue that was not there): the jobs above do this first; this is the net under them.
  { name: 'story.schedule-net', policy: 'stately', cron: '* * * * *', expireInSeconds: 300, run: (ctx) => createNewsroomService(ctx).runDue() },
  // Accounts whose seven days are over, hourly; `npm run accounts:purge` runs the same once.
  { name: 'accounts.purge', policy: 'stately', cron: '17 * * * *', run: (ctx) => purgeDueAccounts(ctx) },
  // Organisers' calendar feeds that are due (each every CALENDAR_FEEDS_INTERVAL_MINUTES).
  { name: 'calendar-feeds.sweep', policy: 'stately', cron: FEED_SWEEP_CRON, run: (ctx) => syncCalendarFeeds(ctx) },
  // A newsletter's current issue (`npm run newsletters:send -- TYPE --queue`): one waiting per
  // type. A run past 10 minutes is taken as dead; one started beside a live send is refused by
  // the send's own lease and retried.
  { name: NEWSLETTER_SEND_JOB, policy: 'short', expireInSeconds: 600, run: (ctx, data) => runNewsletterSendJob(ctx, data) },
  // A fresh photo's or avatar's sizes, made off the upload's request (media/warm-renditions-job.ts):
  // one waiting per storage key. A few resizes take seconds; one still running after five
  // minutes died with its process, and its retry renders only what is missing.
  { name: WARM_RENDITIONS_JOB, policy: 'short', expireInSeconds: 300, run: (ctx, data) => runWarmRenditionsJob(ctx, data) },
];

async function newsroomJob(ctx: AppContext, data: unknown, what: 'publish' | 'unpublish'): Promise<void> {
  const d = data as { id?: unknown; at?: unknown } | null;
  if (!d || !Number.isInteger(d.id) || typeof d.at !== 'string') throw new Error(`story.${what}: bad job data ${JSON.stringify(data)}`);
  const newsroom = createNewsroomService(ctx);
  if (what === 'publish') await newsroom.publishDue(d.id as number, d.at);
  else await newsroom.unpublishDue(d.id as number, d.at);
}


/**
 * The apps' services (each app's service.ts exports createXService(deps)), built once per app
 * here and handed to the routers that use them: an app's API and its pages share one set of
 * caches and limiters, and an app rebuilt from another context (a test's createApp with its
 * own clock or mailer) starts with its own. Nothing else keeps per-context state.
 */
export function buildAppServiceSet(ctx: AppContext) {
  // One upload service: members' uploads, the event form's attached image and staff's ad images.
  const uploads = createImageUploadService(ctx);
  return {
    accounts: createAccountsService(ctx),
    accountDeletion: createAccountDeletionService(ctx),
    uploads,
    eventSubmissions: createEventSubmissionService(ctx, uploads),
    photos: createPhotosService(ctx),
    avatars: createAvatarService(ctx),
    calendarFeeds: createCalendarFeedsService(ctx),
    calendar: createCalendarService(ctx),
    icsFeeds: createIcsFeedService(ctx),
    accessibility: createAccessibilityService(ctx),
    contact: createContactService(ctx),
    placeSuggestions: createPlaceSuggestionsService(ctx),
    newsletters: createNewslettersService(ctx),
    search: createSearchService(),
    geocoder: createGeocoderService(ctx),
    home: createHomeService(ctx),
    listings: createListingsService(ctx),
    newsroom: createNewsroomService(ctx, { sendJob: (name, data, opts) => ctx.jobs.send(name, data, opts) }),
    jobDesk: createJobDeskService(ctx),
    placesDesk: createPlacesDeskService(ctx),
  };
}

export type AppServiceSet = ReturnType<typeof buildAppServiceSet>;

/**
 * Every app's routers, in the order they are tried. Fixed paths come first; the pages whose
 * paths are patterns (article paths, listing hubs and details, photo viewers) come last, most
 * specific first, so they never shadow a fixed path.
 */
export function appRouters(ctx: AppContext): Router[] {
  const services = buildAppServiceSet(ctx);
  const oldPaths = articleOldPathRedirects(ctx);
  return [
    // ## Members: accounts, profile, saved things, uploads
    accountsApi(ctx, services.accounts),
    accountsPages(ctx, services.accounts),
    accountDeletionPages(ctx, services.accountDeletion, services.accounts),
    profilesApi(ctx, services.avatars),
    profilesPages(ctx),
    memberDataRoutes(ctx),
    favouritesApi(ctx),
    todosApi(ctx),
    ratingsApi(ctx),
    bookmarksApi(ctx),
    photosApi(ctx, services.photos),
    uploadsRoutes(ctx, services.uploads),
    eventSubmissionPages(ctx, services.eventSubmissions),
    calendarApi(ctx, services.calendar, services.icsFeeds),
    calendarFeedsApi(ctx, services.calendarFeeds),
    // ## Staff: moderation, contact messages, the audit log, contest draws, house ads
    staffPages(ctx),
    jobDeskPages(ctx, services.jobDesk),
    contestsStaffPages(ctx, services.uploads),
    adsStaffPages(ctx, services.uploads),
    bestOfStaffPages(ctx),
    // Before the places desk's /staff/places/{id}/: 'suggestions' is no place's id.
    placeSuggestionsPages(ctx, services.placeSuggestions),
    placesDeskPages(ctx, services.placesDesk),
    videosStaffPages(ctx, services.uploads),
    placesDeskApi(ctx),
    newsroomApi(ctx, services.newsroom),
    newsroomPages(ctx, services.newsroom),
    // ## Public content API and search
    listingsApi(ctx, services.listings),
    accessibilityApi(ctx, services.accessibility),
    articlesApi(ctx),
    eventsApi(ctx),
    contestsApi(ctx),
    videosApi(ctx),
    neighbourhoodsApi(ctx),
    searchApi(ctx, services.search),
    geocoderApi(ctx, services.geocoder),
    newslettersApi(services.newsletters),
    mapTilesRoutes(ctx),
    // ## Public pages with fixed paths
    accessibilityPages(ctx, services.accessibility),
    oldPaths.query,
    homePages(ctx, services.home),
    newslettersPages(ctx, services.newsletters),
    contactPages(ctx, services.contact),
    sitePages(ctx),
    seoRoutes(ctx),
    searchPages(ctx, services.search),
    eventsPages(ctx),
    contestsPages(ctx),
    videosPages(ctx),
    neighbourhoodsPages(ctx),
    patiosPages(ctx),
    photoChallengesPages(ctx),
    // ## Public pages with pattern paths
    articlesPages(ctx),
    photosPages(ctx),
    listingsPages(ctx, services.listings),
    // Last: an old story address nothing else answered (an imported site's), as a 301.
    oldPaths.rest,
  ];
}

/**
 * Media is served before sessions and CSRF (images need neither), so the core mounts it apart
 * from appRouters; its service is built here all the same, once per app.
 */
export function mediaRoutes(ctx: AppContext): Router {
  return mediaApi(createMediaService(ctx));
}
