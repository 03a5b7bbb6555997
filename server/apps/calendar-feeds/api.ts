import { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { rateLimit } from 'express-rate-limit';
import type { AppContext } from '../../context';
import { memberId, requireMember } from '../../http/auth-guards';
import { NotFoundError, RateLimitedError } from '../../http/errors';
import { DatabaseRateLimitStore } from '../../http/rate-limit-store';
import { pageParams, paginated } from '../../http/pagination';
import { idParam, validate } from '../../http/validate';
import type { CalendarFeedsService } from './service';
import { addFeedSchema } from './schemas';

export const FEEDS_PATH = '/api/v2/calendar-feeds/';

/** "Check now" per member: each one fetches a feed from the internet and may write many events. */
export const CHECK_RATE_LIMIT = { windowMs: 10 * 60 * 1000, limit: 5 };

function checkRateLimit(ctx: AppContext): RequestHandler {
  if (!ctx.config.rateLimits) return (_req, _res, next) => next();
  return rateLimit({
    ...CHECK_RATE_LIMIT,
    store: new DatabaseRateLimitStore(ctx.db, 'calendar-feed-check:'),
    keyGenerator: (req: Request) => `member:${req.user?.id ?? 0}`,
    passOnStoreError: true,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    handler: (_req, _res, next) => next(new RateLimitedError('You have checked your feeds often in the last few minutes; try again in a while. They are also checked every hour on their own.')),
  });
}

// ## Calendar feeds (issue 28): an organiser's iCalendar feeds, imported into the event queue
export function calendarFeedsApi(ctx: AppContext, feeds: CalendarFeedsService): Router {
  const router = Router();
  const eventsOn = (_req: Request, _res: Response, next: NextFunction) => next(ctx.config.flags.events ? undefined : new NotFoundError());
  const noStore = (res: Response) => res.set('Cache-Control', 'no-store');

  router.get(FEEDS_PATH, eventsOn, requireMember, async (req, res) => {
    const all = await feeds.list(memberId(req));
    const params = pageParams(req, 20, 20);
    noStore(res).json(paginated(req, params, all.length, all.slice(params.offset, params.offset + params.limit)));
  });
  router.post(FEEDS_PATH, eventsOn, requireMember, async (req, res) => {
    const { url } = validate(addFeedSchema(ctx.config.calendarFeeds), req.body);
    noStore(res).status(201).json(await feeds.add(memberId(req), url));
  });
  router.delete(`${FEEDS_PATH}:id/`, eventsOn, requireMember, async (req, res) => {
    await feeds.remove(memberId(req), idParam(req.params.id));
    res.status(204).end();
  });
  router.post(`${FEEDS_PATH}:id/check/`, eventsOn, requireMember, checkRateLimit(ctx), async (req, res) => {
    const { feed } = await feeds.checkNow(memberId(req), idParam(req.params.id));
    noStore(res).json(feed);
  });
  return router;
}
