import { Router, type Request } from 'express';
import type { AppContext } from '../../context';
import { PAGE_SIZE } from '../../../shared/constants';
import { page, type PageView } from '../../http/pages/page-view';
import { absolute, trailingSlash } from '../../http/pages/canonical-url';
import { pagesOrFirstPage, pageWindow, pathWithQuery } from '../../http/pages/page-param';
import { whenFlag } from '../../http/pages/feature-gate';
import { challengeByName, challengeEntries, openChallenges, pastChallenges } from './queries';

// The Photo Challenges section (FEATURE_PHOTO_CHALLENGES): the hub (open challenges, then the
// closed ones by page) and each challenge with its entries by page. Off, its paths are 404s.

/** The hub pages closed challenges by the spec's generic 12; a challenge pages its entries
 * by 24, as a listing's photo list does (spec 2 §2). */
export const PAST_PAGE_SIZE = PAGE_SIZE.default;
export const ENTRY_PAGE_SIZE = PAGE_SIZE.listingPhotos;
const OPEN_MAX = 12;
export const PHOTO_CHALLENGES_PATH = '/photo-challenges/';
export const challengePath = (name: string) => `${PHOTO_CHALLENGES_PATH}${name}/`;

export function photoChallengesPages(ctx: AppContext): Router {
  const router = Router();
  const on = whenFlag(ctx, 'photoChallenges');
  const shared = 'shared-for-guests';

  // ## Photo Challenges
  router.get(PHOTO_CHALLENGES_PATH, on, trailingSlash, page(shared, (req) => challengesHub(ctx, req)));
  router.get(`${PHOTO_CHALLENGES_PATH}:name/`, on, trailingSlash, page(shared, (req) => challengePage(ctx, req)));
  return router;
}

async function challengesHub(ctx: AppContext, req: Request): Promise<PageView> {
  const now = ctx.now();
  const { page: pageNo, limit, offset } = pageWindow(req, PAST_PAGE_SIZE);
  const [open, past] = await Promise.all([pageNo === 1 ? openChallenges(ctx.dbRead, now, OPEN_MAX) : [], pastChallenges(ctx.dbRead, now, { limit, offset })]);
  const pages = pagesOrFirstPage(req, pageNo, past.count, PAST_PAGE_SIZE);
  return {
    template: 'photo-challenges/index.njk',
    open,
    past: past.rows,
    pastCount: past.count,
    page: pageNo,
    pages,
    pageTitle: pageNo > 1 ? `Photo Challenges – Page ${pageNo}` : 'Photo Challenges',
    pageDescription: `Shoot ${ctx.config.city.name} to a theme: this month's photo challenges and the best entries.`,
    canonicalUrl: absolute(ctx, pathWithQuery(PHOTO_CHALLENGES_PATH, { page: pageNo })),
  };
}

async function challengePage(ctx: AppContext, req: Request): Promise<PageView | null> {
  const now = ctx.now();
  const challenge = await challengeByName(ctx.dbRead, String(req.params.name), now);
  if (!challenge) return null;
  const { page: pageNo, limit, offset } = pageWindow(req, ENTRY_PAGE_SIZE);
  const pages = pagesOrFirstPage(req, pageNo, challenge.entry_count, ENTRY_PAGE_SIZE);
  const entries = await challengeEntries(ctx.dbRead, challenge.id, { limit, offset });
  const path = challengePath(challenge.name);
  return {
    template: 'photo-challenges/detail.njk',
    challenge,
    isOpen: challenge.end_date.getTime() > now.getTime(),
    entries,
    page: pageNo,
    pages,
    path,
    pageTitle: pageNo > 1 ? `${challenge.title} – Page ${pageNo}` : challenge.title,
    pageDescription: challenge.description.slice(0, 200) || challenge.title,
    canonicalUrl: absolute(ctx, pathWithQuery(path, { page: pageNo })),
  };
}
