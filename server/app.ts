import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import express, { type Express } from 'express';
import cookieParser from 'cookie-parser';
import compression from 'compression';
import type { AppContext } from './context';
import { STATIC_DIR } from './paths';
import { configureViews, viewLocals } from './views';
import { ViteManifest } from './views/vite-manifest';
import { securityHeaders } from './http/security-headers';
import { CSRF_TOKEN_PATH, csrfProtection, csrfTokenRoute } from './http/csrf';
import { rejectNullCharacters } from './http/null-characters';
import { compressedAnswers } from './http/compressed-answers';
import { guestResponseCache } from './http/guest-response-cache';
import { cacheHitFastPath } from './http/cache-hit-fast-path';
import { forgetChangedFor } from './cache/refresh-ahead';
import { changedKeys } from './cache/change-keys';
import { accessLog } from './http/access-log';
import { serverTiming } from './http/server-timing';
import { timeQueries, trackQueries } from './db/query-stats';
import { readYourWrites } from './db/read-your-writes';
import { setCookieMakesPrivate } from './http/set-cookie-private';
import { errorHandler, notFoundHandler } from './http/error-handler';
import { appMiddleware, appRequestRules, appRouters, cacheCookies, mediaRoutes } from './apps';
import { liveReloadRouter } from './dev/live-reload';
import { lingeringClose } from './http/lingering-close';
import { pwaRoutes } from './http/pwa';
import { requestId } from './http/request-id';
import { requirePathTarget } from './http/request-target';
import { appFigures } from './http/metrics';
import { METRICS_PATH, metricsRoute } from './http/metrics-endpoint';
import { routeLabel } from './http/route-template';
import { createEdgePurger, purgeEdgeOnChange } from './http/edge-purge';

/** Express's app.handle (express/lib/application.js), which the app function calls; untyped in @types/express. */
type ExpressHandle = (req: IncomingMessage, res: ServerResponse, callback?: (err?: unknown) => void) => void;

export interface CreateAppOptions {
  /** Re-read the islands' manifest when it changes (development). */
  watchManifest?: boolean;
  /** Reload open pages when islands, templates or the server change (npm run dev). */
  liveReload?: boolean;
}

// The app is a table of contents: cross-cutting middleware first, then each app's routes,
// then the 404 and error handlers. Each app owns its paths; what apps add to the pipeline, and
// the few routes that body parsing and the CSRF check treat apart (appRequestRules), come from
// the app registry (apps/index.ts), so the core imports no app and names no app path.
export function createApp(ctx: AppContext, opts: CreateAppOptions = {}): Express {
  const { config, logger } = ctx;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  app.set('etag', 'strong');
  app.set('query parser', 'extended');
  app.locals.ctx = ctx;
  // First, so it covers every answer: one sent before its request's body was read (a refusal)
  // reads and discards the rest, within bounds, before the connection closes.
  app.use(lingeringClose());
  // Every request has an id (nginx's X-Request-Id, or one made here), sent back and written in
  // every log line written while it is handled.
  app.use(requestId());
  // `GET *` and the like: a 400, before anything reads the target as a path.
  app.use(requirePathTarget);

  const manifest = new ViteManifest(STATIC_DIR, '/static/dist/', opts.watchManifest ?? config.env === 'development');
  const views = configureViews(app, config, manifest);
  views.addGlobal('liveReload', Boolean(opts.liveReload));
  if (opts.liveReload) app.use(liveReloadRouter());
  const fromApps = appMiddleware(ctx);

  // ## Before anything that touches the session or the database
  // Which process answered, behind a balancer (INSTANCE_NAME; unset, nothing is sent).
  if (config.instanceName) {
    const name = config.instanceName;
    app.use((_req, res, next) => {
      res.set('X-Instance', name);
      next();
    });
  }
  // The figures for Prometheus (METRICS_PORT or METRICS_TOKEN; docs/operations.md "Figures"):
  // scrapes with the token on this port are neither logged nor counted; every other request is.
  const figures = appFigures(ctx);
  if (figures && config.metrics.token) app.get(METRICS_PATH, metricsRoute(config.metrics.token, logger));
  if (figures) app.use(figures.countRequests);
  // Every query's time: a slow one (SLOW_QUERY_MS) is logged with its route, each is a figure.
  timeQueries(ctx.db, { logger, slowMs: config.slowQueryMs, observe: figures?.observeQuery });
  app.use(fromApps.beforeLogging);
  const logAnswer = accessLog(logger);
  app.use(logAnswer);
  app.use(securityHeaders(config));
  // Before the session middleware, so it sees every cookie set on the answer (see there).
  app.use(setCookieMakesPrivate);
  // Production only: tests must see the page their own fixtures produce, and a developer the
  // template they just saved. What is the same for everybody is served first, before the
  // session is read and before the steps a stored answer does not need (compression: it is
  // stored compressed; static files, body parsing, cookie parsing, Server-Timing); the rest
  // after the session, where a member is served only what is the same for members and their
  // own session is renewed.
  const pageCache = config.isProduction ? guestResponseCache({ cookies: cacheCookies }) : null;
  if (pageCache) {
    // Served before Express itself (cache-hit-fast-path.ts): the steps above that a stored
    // answer needs are its request id, the headers they set on every answer, read off here,
    // and its figures and log line. app.handle is what both app.listen's server and supertest
    // call, so tests of the production app go through it too.
    const front = cacheHitFastPath({
      serveBeforeSession: pageCache.serveBeforeSession,
      everyAnswer: figures ? [figures.countRequests, logAnswer] : [logAnswer],
    });
    app.use(front.readFrontHeaders);
    const expressApp = app as Express & { handle: ExpressHandle };
    const handle = expressApp.handle.bind(app);
    expressApp.handle = (req, res, callback) => {
      if (!front.serve(req, res)) handle(req, res, callback);
    };
  }
  // Content changed here or in another process (cache/change-notices.ts): this app's kept pages,
  // and the shared answers, counts and gazetteer kept per database, that show what the change
  // names (its Surrogate-Key keys, and its paths) go, so the next reader, on any process, gets
  // the change; the rest stay. A change naming no keys (a reconnect) drops them all.
  ctx.changes.subscribe((change) => {
    pageCache?.purgeChange(change);
    for (const db of new Set([ctx.db, ctx.dbRead])) forgetChangedFor(db, changedKeys(change));
  });
  // The edge in front (EDGE_PURGE_URL, docs/edge.md) drops the answers naming a change's keys:
  // told by the process that made the change only (afterAnnounce), not on others' notices.
  if (config.edge.purgeUrls.length) {
    purgeEdgeOnChange(ctx.changes, createEdgePurger({ urls: config.edge.purgeUrls, repeatMs: config.edge.purgeRepeatMs, logger }));
  }
  app.use(compression());
  // After compression (its copy goes out as it is) and before the guest cache's capture.
  app.use(compressedAnswers());
  // Counted under one route in the figures, not as 'unmatched'.
  if (figures) app.use('/static', routeLabel('/static/*'));
  app.use(
    '/static/dist',
    express.static(path.join(STATIC_DIR, 'dist'), { immutable: true, maxAge: '1y', index: false, fallthrough: true }),
  );
  app.use('/static', express.static(STATIC_DIR, { maxAge: '1h', index: false }));
  // The web app manifest, the service worker at the site root and its offline page: the same
  // for everybody, so before the session like the static files.
  app.use(pwaRoutes(config, STATIC_DIR));
  app.use(mediaRoutes(ctx));
  // Counts each page's and API answer's own queries from here on (sessions included) and says
  // so in its Server-Timing header; static files and media run none.
  if (config.serverTiming) {
    trackQueries(ctx.db);
    app.use(serverTiming());
  }

  // ## Request parsing, sessions, CSRF
  // JSON bodies are at most 1 MB, but for the routes that read their own (a photo as base64
  // JSON): they read it themselves, after the session and CSRF checks, so a guest cannot make
  // the server hold one. Their apps declare them, with the reason (rules.readsOwnBody).
  const rules = appRequestRules;
  const json = express.json({ limit: '1mb' });
  const readsOwnBody = new Set<string>(rules.readsOwnBody);
  app.use((req, res, next) => (readsOwnBody.has(`${req.method} ${req.path}`) ? next() : json(req, res, next)));
  app.use(express.urlencoded({ extended: false, limit: '1mb' }));
  app.use(cookieParser());
  app.use(fromApps.session);
  // With a replica: whoever has just written reads from the primary until it has their write.
  if (ctx.replica) app.use(readYourWrites(ctx.replica, { secret: config.sessionSecret, secureCookie: config.isProduction }));
  // Multipart bodies are read by their routes, after the session and CSRF checks. The paths
  // below are the apps' (apps/index.ts appRequestRules), each justified where it is declared:
  // forms posted without JavaScript whose token is the body's first field, checked by their
  // route's parser before it reads on; the exempt paths (Django's @csrf_exempt); and the GETs
  // that always issue the token.
  app.use(csrfProtection({
    secureCookie: config.isProduction,
    trustedOrigins: [new URL(config.site.url).origin, ...config.csrfTrustedOrigins],
    multipartFirstFieldPaths: rules.multipartFirstField,
    exemptPaths: rules.csrfExempt,
    issuePaths: rules.csrfIssue,
  }));
  // A token for a script about to make its first unsafe call on a page that carried none.
  app.get(CSRF_TOKEN_PATH, csrfTokenRoute);
  app.use(rejectNullCharacters);
  if (pageCache) app.use(pageCache);
  app.use(viewLocals);
  // Every page carries the navbar: its server-rendered markup and the island's state.
  app.use(fromApps.pageLocals);

  // ## Pages and APIs, one app each
  for (const router of appRouters(ctx)) app.use(router);

  // ## Nothing matched
  app.use(notFoundHandler);
  app.use(errorHandler(logger));
  return app;
}
