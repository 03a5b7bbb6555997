import { Router, type Request, type Response } from 'express';
import type { AppContext } from '../../context';
import { memberId, requireMember } from '../../http/auth-guards';
import { NotFoundError } from '../../http/errors';
import { idParam, validate } from '../../http/validate';
import { sharedWithGuests } from '../../http/api-cache-headers';
import { addSharedSurrogateKeys, surrogateKeys } from '../../http/surrogate-keys';
import type { ListingAccessibilityDTO } from '../../../shared/dto';
import { listingAccessibility, listingExists, memberReports } from './queries';
import { reportSchema } from './schemas';
import type { AccessibilityService } from './service';
import { purgeListingAccessibilityPages } from './purge-pages';

// ## Accessibility of a place (issue 27)
// GET  /api/v2/listings/{id}/accessibility/       every attribute: verified, reported (counts) or unknown
// POST /api/v2/listings/{id}/accessibility/       a member's report {attribute, answer, note}:
//      201 a first report, 200 a replaced one, 204 when 'unknown' withdrew it (or there was none)
// GET  /api/v2/listings/{id}/accessibility/mine/  the member's own current reports (never shared)
export function accessibilityApi(ctx: AppContext, accessibility: AccessibilityService): Router {
  const router = Router();
  const path = '/api/v2/listings/:id/accessibility/';

  router.get(path, sharedWithGuests, async (req: Request, res: Response) => {
    const id = idParam(req.params.id);
    if (!(await listingExists(ctx.db, id))) throw new NotFoundError();
    const answer: ListingAccessibilityDTO = { listing: id, attributes: await listingAccessibility(ctx.db, id) };
    addSharedSurrogateKeys(res, [surrogateKeys.place(id)]);
    res.json(answer);
  });

  router.post(path, requireMember, accessibility.rateLimit, async (req: Request, res: Response) => {
    const id = idParam(req.params.id);
    const input = validate(reportSchema, req.body);
    const outcome = await accessibility.report(memberId(req), id, input);
    await purgeListingAccessibilityPages(ctx, id);
    if (!('report' in outcome)) return void res.status(204).end();
    res.status(outcome.kind === 'created' ? 201 : 200).json(outcome.report);
  });

  router.get(`${path}mine/`, requireMember, async (req: Request, res: Response) => {
    const id = idParam(req.params.id);
    if (!(await listingExists(ctx.db, id))) throw new NotFoundError();
    const results = await memberReports(ctx.db, memberId(req), id);
    // Eight attributes at most: the list shape with everything on one page.
    res.set('Cache-Control', 'private, no-store').json({ count: results.length, next: null, previous: null, results });
  });
  return router;
}
