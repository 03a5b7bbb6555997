import { Router } from 'express';
import type { AppContext } from '../../context';
import { publicPage, renderView, trailingSlash } from './public-page';
import { ageGate, AGE_GATE_PREFIX, answerAgeGate } from './age-gate';
import { archiveChoice, archiveMonth, archivesIndex } from './archives';
import { staticPage } from './static-pages';

// The site's own pages: about, jobs, legal, archives, and the cannabis section's age gate.
export function sitePages(ctx: AppContext): Router {
  const router = Router();
  const content = publicPage('content');

  // ## About, jobs, legal
  router.get('/about', ...content, renderView(() => staticPage(ctx, 'about')));
  router.get('/jobs', ...content, renderView(() => staticPage(ctx, 'jobs')));
  router.get('/privacy/', trailingSlash, ...content, renderView(() => staticPage(ctx, 'privacy')));
  router.get('/termsofservice/', trailingSlash, ...content, renderView(() => staticPage(ctx, 'termsofservice')));

  // ## Archives
  router.get('/archives/', trailingSlash, (req, res, next) => {
    const target = archiveChoice(req.query);
    return target ? res.redirect(302, target) : next();
  }, ...content, renderView(() => archivesIndex(ctx)));
  router.get('/archives/:year/:month/', trailingSlash, ...content, renderView((req) => archiveMonth(ctx, req)));

  // ## Age gate: guards the cannabis section (its hub and articles are the articles app's)
  router.use(AGE_GATE_PREFIX, ageGate(ctx.config));
  router.post('/age-gate/', answerAgeGate(ctx.config));
  return router;
}
