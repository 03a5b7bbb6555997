import { Router, type RequestHandler } from 'express';
import type { AppContext, AppServices } from '../context';
import { healthRouter } from './health/routes';
import { createPassport, sessionMiddleware } from './accounts/session';
import { navbarIsland } from './accounts/navbar';
import { syncBookmarkToCalendar } from './calendar/sync';
import { accountsApi } from './accounts/api';
import { accountsPages } from './accounts/pages';
import { profilesApi } from './profiles/api';
import { profilesPages } from './profiles/pages';
import { favouritesApi } from './favourites/api';
import { todosApi } from './todos/api';
import { ratingsApi } from './ratings/api';
import { bookmarksApi } from './bookmarks/api';
import { photosApi } from './photos/api';
import { mediaRoutes } from './media/routes';
import { uploadsRoutes } from './uploads/routes';
import { eventSubmissionPages } from './event-submissions/pages';
import { calendarApi } from './calendar/api';
import { listingsApi } from './listings/api';
import { articlesApi } from './articles/api';
import { eventsApi } from './events/api';
import { contestsApi } from './contests/api';
import { videosApi } from './videos/api';
import { neighbourhoodsApi } from './neighbourhoods/api';
import { searchApi } from './search/api';
import { newslettersApi } from './newsletters/api';
import { newslettersPages } from './newsletters/pages';
import { contactPages } from './contact/pages';
import { sitePages } from './site-pages/pages';
import { seoRoutes } from './seo/routes';
import { homePages } from './home/pages';
import { searchPages } from './search/pages';
import { articlesPages } from './articles/pages';
import { eventsPages } from './events/pages';
import { contestsPages } from './contests/pages';
import { videosPages } from './videos/pages';
import { neighbourhoodsPages } from './neighbourhoods/pages';
import { photosPages } from './photos/pages';
import { listingsPages } from './listings/pages';
import { patiosPages } from './patios/pages';
import { photoChallengesPages } from './photo-challenges/pages';
import { mapTilesRoutes } from './map-tiles/routes';

/**
 * What one app offers another through the context (server/context.ts), so that the one using
 * it needs no import of the one offering it. Whoever builds an AppContext spreads these in.
 */
export const appServices: AppServices = {
  calendarSync: syncBookmarkToCalendar,
};

/**
 * The middleware apps put into the core's pipeline, by the stage app.ts runs them at. The core
 * imports no app: it runs what this registry hands it.
 */
export interface AppMiddleware {
  /** Before logging, sessions and the database: probes cost one trivial query. */
  beforeLogging: RequestHandler[];
  /** Sessions in the database and the signed-in member in req.user. */
  session: RequestHandler[];
  /** After the view locals: what every page carries (the navbar's markup and island state). */
  pageLocals: RequestHandler[];
}

export function appMiddleware(ctx: AppContext): AppMiddleware {
  const passport = createPassport(ctx.db);
  return {
    beforeLogging: [healthRouter(ctx)],
    session: [sessionMiddleware(ctx.config, ctx.db, ctx.logger), passport.session()],
    pageLocals: [navbarIsland(ctx)],
  };
}

/**
 * Every app's routers, in the order they are tried. Fixed paths come first; the pages whose
 * paths are patterns (article paths, listing hubs and details, photo viewers) come last, most
 * specific first, so they never shadow a fixed path.
 */
export function appRouters(ctx: AppContext): Router[] {
  return [
    // ## Members: accounts, profile, saved things, uploads
    accountsApi(ctx),
    accountsPages(ctx),
    profilesApi(ctx),
    profilesPages(ctx),
    favouritesApi(ctx),
    todosApi(ctx),
    ratingsApi(ctx),
    bookmarksApi(ctx),
    photosApi(ctx),
    uploadsRoutes(ctx),
    eventSubmissionPages(ctx),
    calendarApi(ctx),
    // ## Public content API and search
    listingsApi(ctx),
    articlesApi(ctx),
    eventsApi(ctx),
    contestsApi(ctx),
    videosApi(ctx),
    neighbourhoodsApi(ctx),
    searchApi(ctx),
    newslettersApi(ctx),
    mapTilesRoutes(ctx),
    // ## Public pages with fixed paths
    homePages(ctx),
    newslettersPages(ctx),
    contactPages(ctx),
    sitePages(ctx),
    seoRoutes(ctx),
    searchPages(ctx),
    eventsPages(ctx),
    contestsPages(ctx),
    videosPages(ctx),
    neighbourhoodsPages(ctx),
    patiosPages(ctx),
    photoChallengesPages(ctx),
    // ## Public pages with pattern paths
    articlesPages(ctx),
    photosPages(ctx),
    listingsPages(ctx),
  ];
}

/** Media is served before sessions and CSRF: images need neither. */
export { mediaRoutes };
