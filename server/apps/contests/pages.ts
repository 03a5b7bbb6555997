import { Router, type Request } from 'express';
import type { AppContext } from '../../context';
import { PAGE_SIZE } from '../../../shared/constants';
import { urls } from '../../../shared/urls';
import { page, type PageView } from '../../http/pages/page-view';
import { absolute } from '../../http/pages/canonical-url';
import { offsetParam } from '../../http/pages/page-param';
import { whenFlag } from '../../http/pages/feature-gate';
import { listContests } from './queries';
import { publishedContest } from './page-queries';
import { toContestDTO } from './serialize';
import { entryWindow } from './entries';
import { entryFormPage, submitEntry } from './entry-pages';

// The contests hub (newest first, 'Load more' as a plain ?offset= link) and each contest.

export function contestsPages(ctx: AppContext): Router {
  const router = Router();
  const on = whenFlag(ctx, 'contests');
  const shared = 'shared-for-guests';

  // ## Contests
  router.get('/contests/', on, page(shared, (req) => contestsHub(ctx, req)));
  router.get('/contests/:name/', on, page(shared, (req) => contestPage(ctx, req)));
  router.get('/contests/:name/rules/', on, page(shared, (req) => rulesPage(ctx, req)));
  // The entry form: private (its CSRF token); see entry-pages.ts for why it has its own page.
  router.get('/contests/:name/enter/', on, page('private', (req) => entryFormPage(ctx, req)));
  router.post('/contests/:name/enter/', on, page('private', (req, res) => submitEntry(ctx, req, res)));

  return router;
}

async function contestsHub(ctx: AppContext, req: Request): Promise<PageView> {
  const offset = offsetParam(req);
  const limit = PAGE_SIZE.contests;
  const now = ctx.now();
  const result = await listContests(ctx.dbRead, { limit, offset, ordering: '-date_published' }, { siteUrl: '', now });
  return {
    template: 'contests/index.njk',
    contests: result.results,
    count: result.count,
    offset,
    nextOffset: offset + limit < result.count ? offset + limit : null,
    previousOffset: offset > 0 ? Math.max(0, offset - limit) : null,
    pageTitle: `Contests in ${ctx.config.city.name}`,
    pageDescription: `Win tickets, dinners and more from ${ctx.config.site.name}.`,
    canonicalUrl: absolute(ctx, '/contests/') + (offset ? `?offset=${offset}` : ''),
  };
}

async function contestPage(ctx: AppContext, req: Request): Promise<PageView | null> {
  const now = ctx.now();
  const contest = await publishedContest(ctx.dbRead, String(req.params.name), now);
  if (!contest) return null;
  return {
    template: 'contests/detail.njk',
    contest,
    dto: toContestDTO(contest, '', now),
    // The same for every visitor at a given time: the page stays shareable by caches.
    window: entryWindow(contest, now),
    pageTitle: contest.title,
    pageDescription: contest.description.slice(0, 200) || contest.title,
    canonicalUrl: absolute(ctx, urls.contest(contest.name)),
  };
}

/** The contest's rules with the disclosure every contest carries (no purchase, odds, question). */
async function rulesPage(ctx: AppContext, req: Request): Promise<PageView | null> {
  const now = ctx.now();
  const contest = await publishedContest(ctx.db, String(req.params.name), now);
  if (!contest) return null;
  return {
    template: 'contests/rules.njk',
    contest,
    dto: toContestDTO(contest, '', now),
    pageTitle: `Official rules: ${contest.title}`,
    pageDescription: `The official rules, odds and eligibility of ${contest.title}.`,
    canonicalUrl: absolute(ctx, urls.contestRules(contest.name)),
  };
}
