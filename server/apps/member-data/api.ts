import { Router, type Request, type RequestHandler } from 'express';
import { rateLimit } from 'express-rate-limit';
import type { AppContext } from '../../context';
import { requireMemberPage } from '../../http/auth-guards';
import { RateLimitedError } from '../../http/errors';
import { DatabaseRateLimitStore } from '../../http/rate-limit-store';
import type { Member } from '../profiles/member';
import { exportFileName, writeMemberExport } from './export';
import { ClientGoneError } from './zip-stream';
import { MEMBER_EXPORT_PATH } from '../../../shared/member-data';

/** The member's data as one ZIP; a plain link from the dashboard's 'Your data'. */
export const EXPORT_PATH = MEMBER_EXPORT_PATH;

/** Exports per member per hour: each one reads everything the member has, so it is dear. */
export const EXPORT_RATE_LIMIT = { windowMs: 60 * 60 * 1000, limit: 5 };

/** Counted per member (behind requireMemberPage), wherever they download from. */
const exportKey = (req: Request) => `member:${(req.user as Member).id}`;

function exportRateLimit(ctx: AppContext, store: DatabaseRateLimitStore): RequestHandler {
  if (!ctx.config.rateLimits) return (_req, _res, next) => next();
  return rateLimit({
    ...EXPORT_RATE_LIMIT,
    store,
    keyGenerator: exportKey,
    passOnStoreError: true,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    handler: (_req, _res, next) => next(new RateLimitedError()),
  });
}

/** What the download answers before its first byte, for GET and HEAD alike. */
function exportHeaders(ctx: AppContext): Record<string, string> {
  return {
    'Content-Type': 'application/zip',
    'Content-Disposition': `attachment; filename="${exportFileName(ctx.config.site.name, ctx.now())}"`,
    'Cache-Control': 'private, no-store',
    'X-Content-Type-Options': 'nosniff',
  };
}

// ## Your data: a member downloads everything the site keeps about them (issue 16)
export function memberDataRoutes(ctx: AppContext): Router {
  const router = Router();
  const store = new DatabaseRateLimitStore(ctx.db, 'member-export:');

  // HEAD (a link checker, a download manager asking first) answers what GET would, without
  // building the ZIP or spending one of the member's exports: the budget is only read.
  router.head(EXPORT_PATH, requireMemberPage, async (req, res) => {
    if (ctx.config.rateLimits) {
      const used = await store.get(exportKey(req)).catch(() => undefined); // as passOnStoreError
      if (used && used.totalHits >= EXPORT_RATE_LIMIT.limit) throw new RateLimitedError();
    }
    // No Content-Length: GET streams the ZIP without one either.
    res.status(200).set(exportHeaders(ctx)).end();
  });

  router.get(EXPORT_PATH, requireMemberPage, exportRateLimit(ctx, store), async (req, res) => {
    const member = req.user as Member;
    res.status(200).set(exportHeaders(ctx));
    try {
      await writeMemberExport(ctx, member, res);
    } catch (err) {
      // Nothing sent yet (the database failed on the first queries): the error handler answers.
      if (!res.headersSent) {
        for (const header of ['Content-Type', 'Content-Disposition']) res.removeHeader(header);
        throw err;
      }
      // The headers are gone: all that is left is to cut the download short, so the browser
      // reports a failed download instead of keeping a truncated ZIP.
      if (!(err instanceof ClientGoneError)) ctx.logger.error({ err, memberId: member.id }, 'member data export failed');
      res.destroy();
    }
  });

  return router;
}
