import { Router, type NextFunction, type Request, type Response } from 'express';
import { z } from 'zod';
import type { AppContext } from '../../context';
import type { CalendarStatusDTO } from '../../../shared/dto';
import { memberId, requireMember, requireMemberPage } from '../../http/auth-guards';
import { HttpError, NotFoundError } from '../../http/errors';
import { safeNextPath } from '../../http/safe-redirect';
import { validate } from '../../http/validate';
import { calendarEnabled } from '../../config';
import { OAUTH_CALLBACK_PATH, type CalendarService, type IcsFeedService } from './service';

const authorizationQuery = z.object({ next_url: z.string().max(2000, 'Ensure this field has no more than 2000 characters.').optional() });
const connectQuery = z.object({ next: z.string().max(2000, 'Ensure this field has no more than 2000 characters.').optional() });

/** The server redirect to Google's consent screen that the dashboard's 'Connect' link uses. */
export const CONNECT_PATH = '/profiles/oauth-connect/';
const DASHBOARD_EVENTS = '/accounts/dashboard/#/events/';

/**
 * The nonce must be in the session store before the browser leaves for Google: express-session
 * saves at the end of the response, and a store that is slow or fails would otherwise let the
 * member come back to a callback that cannot find it.
 */
function saveSession(req: Request): Promise<void> {
  return new Promise((resolve, reject) => req.session.save((err) => (err ? reject(err) : resolve())));
}
const callbackQuery = z.object({
  state: z.string().max(2000).optional(),
  code: z.string().max(2000).optional(),
  error: z.string().max(200).optional(),
});

// ## Calendar: Google Calendar authorization (spec 1 §7) and the private ICS feed.
export function calendarApi(ctx: AppContext, calendar: CalendarService, feeds: IcsFeedService): Router {
  const router = Router();
  const googleOn = (_req: Request, _res: Response, next: NextFunction) => next(calendarEnabled(ctx.config) ? undefined : new NotFoundError());
  const eventsOn = (_req: Request, _res: Response, next: NextFunction) => next(ctx.config.flags.events ? undefined : new NotFoundError());

  router.get('/api/v2/profiles/oauth-authorization/', googleOn, requireMember, async (req, res) => {
    const { next_url } = validate(authorizationQuery, req.query);
    const { url, nonce } = calendar.authorizationUrl(memberId(req), { next: next_url, sessionBound: true });
    req.session.calendarOAuthNonce = nonce;
    await saveSession(req);
    res.json({ authorization_url: url });
  });
  // Works without JavaScript: a plain link from Calendar Settings, back to the events view.
  router.get(CONNECT_PATH, googleOn, requireMemberPage, async (req, res) => {
    const { next } = validate(connectQuery, req.query);
    const { url, nonce } = calendar.authorizationUrl(memberId(req), { next: next ?? DASHBOARD_EVENTS, sessionBound: true });
    req.session.calendarOAuthNonce = nonce;
    await saveSession(req);
    res.redirect(302, url);
  });
  router.get('/api/v2/profiles/me/calendar/', eventsOn, requireMember, async (req, res) => {
    const id = memberId(req);
    const configured = calendarEnabled(ctx.config);
    const body: CalendarStatusDTO = {
      google: {
        configured,
        connected: configured && (await calendar.connected(id)),
        connect_url: configured ? `${CONNECT_PATH}?next=${encodeURIComponent(DASHBOARD_EVENTS)}` : null,
        setup_hint: configured || ctx.config.isProduction ? null : setupHint(ctx.config.site.url),
      },
      feed: await feeds.link(id),
    };
    res.set('Cache-Control', 'no-store').json(body);
  });
  router.get(OAUTH_CALLBACK_PATH, googleOn, (req, res) => oauthCallback(ctx, calendar, req, res));

  router.get('/api/v2/profiles/me/ics-feed/', eventsOn, requireMember, async (req, res) => res.json(await feeds.link(memberId(req))));
  router.post('/api/v2/profiles/me/ics-feed/', eventsOn, requireMember, async (req, res) => res.status(201).json(await feeds.rotate(memberId(req))));
  router.delete('/api/v2/profiles/me/ics-feed/', eventsOn, requireMember, async (req, res) => {
    await feeds.revoke(memberId(req));
    res.status(204).end();
  });
  router.get('/calendar/:token.ics', eventsOn, async (req, res) => {
    const body = await feeds.render(String(req.params.token));
    if (body === null) throw new NotFoundError();
    res.set({ 'Content-Type': 'text/calendar; charset=utf-8', 'Cache-Control': 'private, max-age=300', 'X-Robots-Tag': 'noindex' }).send(body);
  });
  return router;
}

/** What a developer reads on the dashboard when sync is off (never shown in production). */
export function setupHint(siteUrl: string): string {
  return `Google Calendar sync is off on this server. To turn it on, create an OAuth client (type "Web application") in the Google Cloud console with the redirect URI ${siteUrl}${OAUTH_CALLBACK_PATH}, then start the server with GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET set to its ID and secret.`;
}

const INVALID_STATE = 'This calendar authorization link is invalid or has expired. Please try again.';

async function oauthCallback(ctx: AppContext, calendar: CalendarService, req: Request, res: Response): Promise<void> {
  const query = validate(callbackQuery, req.query);
  if (!req.user) return res.redirect(302, `/accounts/login?next=${encodeURIComponent(req.originalUrl)}`);
  const state = calendar.verifyState(query.state);
  // CASE: a state for another member, or one issued to another session: never accepted.
  if (!state || state.m !== req.user.id) throw new HttpError(400, INVALID_STATE);
  if (state.s) {
    if (req.session.calendarOAuthNonce !== state.n) throw new HttpError(400, INVALID_STATE);
    delete req.session.calendarOAuthNonce;
  }
  const next = safeNextPath(state.x, '/');
  if (query.error || !query.code) {
    // Spec 1 §8: a calendar authorization failure is logged only.
    ctx.logger.info({ memberId: req.user.id, error: query.error ?? 'no code' }, 'calendar: authorization not given');
    return res.redirect(302, next);
  }
  try {
    await calendar.completeAuthorization(req.user.id, state, query.code);
  } catch (err) {
    ctx.logger.warn({ err, memberId: req.user.id }, 'calendar: token exchange failed');
  }
  res.redirect(302, next);
}
