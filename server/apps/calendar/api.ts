import { Router, type NextFunction, type Request, type Response } from 'express';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { memberId, requireMember } from '../../http/auth-guards';
import { HttpError, NotFoundError } from '../../http/errors';
import { safeNextPath } from '../../http/safe-redirect';
import { validate } from '../../http/validate';
import { calendarEnabled } from '../../config';
import { createCalendarService, OAUTH_CALLBACK_PATH } from './sync';
import { createIcsFeedService } from './ics-feed';

const authorizationQuery = z.object({ next_url: z.string().max(2000, 'Ensure this field has no more than 2000 characters.').optional() });
const callbackQuery = z.object({
  state: z.string().max(2000).optional(),
  code: z.string().max(2000).optional(),
  error: z.string().max(200).optional(),
});

// ## Calendar: Google Calendar authorization (spec 1 §7) and the private ICS feed.
export function calendarApi(ctx: AppContext): Router {
  const router = Router();
  const calendar = createCalendarService(ctx);
  const feeds = createIcsFeedService(ctx);
  const googleOn = (_req: Request, _res: Response, next: NextFunction) => next(calendarEnabled(ctx.config) ? undefined : new NotFoundError());
  const eventsOn = (_req: Request, _res: Response, next: NextFunction) => next(ctx.config.flags.events ? undefined : new NotFoundError());

  router.get('/api/v2/profiles/oauth-authorization/', googleOn, requireMember, (req, res) => {
    const { next_url } = validate(authorizationQuery, req.query);
    const { url, nonce } = calendar.authorizationUrl(memberId(req), { next: next_url, sessionBound: true });
    req.session.calendarOAuthNonce = nonce;
    res.json({ authorization_url: url });
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

const INVALID_STATE = 'This calendar authorization link is invalid or has expired. Please try again.';

async function oauthCallback(ctx: AppContext, calendar: ReturnType<typeof createCalendarService>, req: Request, res: Response): Promise<void> {
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
