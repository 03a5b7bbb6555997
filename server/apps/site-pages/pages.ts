import { Router, type NextFunction, type Request, type Response } from 'express';
import type { AppContext } from '../../context';
import { page } from '../../http/pages/page-view';
import { trailingSlash } from '../../http/pages/canonical-url';
import { ageGateGuard, ageGatePage, AGE_GATE_PREFIX, answerAgeGate } from './age-gate';
import { archiveChoice, archiveMonth, archivesIndex } from './archives';
import { staticPage } from './static-pages';

// The site's own pages: about, jobs, legal, archives, and the cannabis section's age gate.
export function sitePages(ctx: AppContext): Router {
  const router = Router();
  const shared = 'shared-for-guests';

  // ## About, masthead, jobs, legal
  router.get('/about', page(shared, () => staticPage(ctx, 'about')));
  router.get('/jobs', page(shared, () => staticPage(ctx, 'jobs')));
  router.get('/masthead/', trailingSlash, page(shared, () => staticPage(ctx, 'masthead')));
  router.get('/privacy/', trailingSlash, page(shared, () => staticPage(ctx, 'privacy')));
  router.get('/termsofservice/', trailingSlash, page(shared, () => staticPage(ctx, 'termsofservice')));

  // ## Archives
  router.get('/archives/', trailingSlash, archiveChosen, page(shared, () => archivesIndex(ctx)));
  router.get('/archives/:year/:month/', trailingSlash, page(shared, (req) => archiveMonth(ctx, req)));

  // ## Age gate: guards the cannabis section (its hub and articles are the articles app's)
  router.use(AGE_GATE_PREFIX, page('private', (req, res) => ageGateGuard(ctx.config, req, res)));
  router.get('/age-gate/', page('private', (req) => ageGatePage(ctx.config, req)));
  router.post('/age-gate/', answerAgeGate(ctx.config));
  return router;
}

/** CASE: the archive chooser submitted without JavaScript: go to the month it names. */
function archiveChosen(req: Request, res: Response, next: NextFunction): void {
  const target = archiveChoice(req.query);
  return target ? res.redirect(302, target) : next();
}
