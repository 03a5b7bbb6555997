import path from 'node:path';
import express, { type Express } from 'express';
import cookieParser from 'cookie-parser';
import compression from 'compression';
import { pinoHttp } from 'pino-http';
import type { AppContext } from './context';
import { STATIC_DIR } from './paths';
import { configureViews, viewLocals } from './views';
import { ViteManifest } from './views/vite-manifest';
import { securityHeaders } from './http/security-headers';
import { csrfProtection } from './http/csrf';
import { guestResponseCache } from './http/guest-response-cache';
import { errorHandler, notFoundHandler } from './http/error-handler';
import { createPassport, sessionMiddleware } from './apps/accounts/session';
import { healthRouter } from './apps/health/routes';
import { appRouters, mediaRoutes } from './apps';
import { liveReloadRouter } from './dev/live-reload';
import { eventSubmissionBodyParser } from './apps/event-submissions/body-parser';
import { navbarIsland } from './apps/accounts/navbar';

export interface CreateAppOptions {
  /** Re-read the islands' manifest when it changes (development). */
  watchManifest?: boolean;
  /** Reload open pages when islands, templates or the server change (npm run dev). */
  liveReload?: boolean;
}

// The app is a table of contents: cross-cutting middleware first, then each app's routes,
// then the 404 and error handlers. Each app owns its paths.
export function createApp(ctx: AppContext, opts: CreateAppOptions = {}): Express {
  const { config, db, logger } = ctx;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  app.set('etag', 'strong');
  app.set('query parser', 'extended');
  app.locals.ctx = ctx;

  const manifest = new ViteManifest(STATIC_DIR, '/static/dist/', opts.watchManifest ?? config.env === 'development');
  const views = configureViews(app, config, manifest);
  views.addGlobal('liveReload', Boolean(opts.liveReload));
  if (opts.liveReload) app.use(liveReloadRouter());

  // ## Before anything that touches the session or the database
  app.use(healthRouter(ctx));
  app.use(
    pinoHttp({
      logger,
      autoLogging: { ignore: (req) => (req.url ?? '').startsWith('/static/') },
      // One compact line a request: no headers, so no cookies or tokens in the logs.
      serializers: {
        req: (req: { id: unknown; method: string; url: string; remoteAddress?: string }) => ({ id: req.id, method: req.method, url: req.url, ip: req.remoteAddress }),
        res: (res: { statusCode: number }) => ({ status: res.statusCode }),
      },
    }),
  );
  app.use(compression());
  app.use(securityHeaders(config));
  app.use(
    '/static/dist',
    express.static(path.join(STATIC_DIR, 'dist'), { immutable: true, maxAge: '1y', index: false, fallthrough: true }),
  );
  app.use('/static', express.static(STATIC_DIR, { maxAge: '1h', index: false }));
  app.use(mediaRoutes(ctx));

  // ## Request parsing, sessions, CSRF
  // A listing photo arrives as base64 JSON: 6 MB of JPEG is about 8.4 MB of text. Only that
  // path gets the larger limit; a body parsed here is not parsed again below.
  app.use('/api/v2/photos/', express.json({ limit: `${Math.ceil(config.limits.photoUploadMaxMb * 1.4) + 1}mb` }));
  app.use(express.json({ limit: '1mb' }));
  app.use(express.urlencoded({ extended: false, limit: '1mb' }));
  app.use(cookieParser());
  app.use(sessionMiddleware(config, db, logger));
  const passport = createPassport(db);
  app.locals.passport = passport;
  app.use(passport.session());
  // A multipart form's csrfmiddlewaretoken is only readable once its body is parsed.
  app.post('/events/add/', eventSubmissionBodyParser(ctx));
  app.use(csrfProtection({ secureCookie: config.isProduction }));
  // Production only: tests must see the page their own fixtures produce, and a developer the
  // template they just saved.
  if (config.isProduction) app.use(guestResponseCache());
  app.use(viewLocals);
  // Every page carries the navbar: its server-rendered markup and the island's state.
  app.use(navbarIsland(ctx));

  // ## Pages and APIs, one app each
  for (const router of appRouters(ctx)) app.use(router);

  // ## Nothing matched
  app.use(notFoundHandler);
  app.use(errorHandler(logger));
  return app;
}
