import { Router, type Response } from 'express';
import type { AppContext } from '../../context';
import { adsShown } from '../../config';
import { NotFoundError } from '../../http/errors';
import { idParam, validate } from '../../http/validate';
import { imageUrl } from '../../../shared/format/image-url';
import type { AdServeResponse } from '../../../shared/ads';
import { findHouseAd, pickByWeight, runningHouseAds } from './house-ad-queries';
import { cityDay, countAdEvent } from './ad-counter-queries';
import { serveQuerySchema } from './schemas';

// The two ad endpoints a page's slots use. Mounted before the session, the CSRF cookie and the
// access log (apps/index.ts, beforeLogging), so an ad request sets no cookie and leaves no
// trace of who asked: the only thing kept is a per-ad, per-day count. Neither is cached: every
// answer is a fresh choice, and every click is counted.
//
//   GET /api/ads/serve/?slot=leaderboard  the house ad to show now ({ad: null} when none runs);
//                                         the slot asks only when it is in view and the bidders
//                                         did not win it, so each answer is one impression
//   GET /ads/<id>/click/                  counts a click and redirects to the advertiser

export const AD_SERVE_PATH = '/api/ads/serve/';
export const adClickPath = (id: number) => `/ads/${id}/click/`;

function noStore(res: Response): void {
  res.set('Cache-Control', 'no-store');
  res.set('X-Robots-Tag', 'noindex, nofollow');
}

export function adServingRouter(ctx: AppContext): Router {
  const router = Router();
  const { config, db } = ctx;

  router.get(AD_SERVE_PATH, async (req, res) => {
    if (!adsShown(config)) throw new NotFoundError();
    const { slot } = validate(serveQuerySchema, req.query);
    const day = cityDay(ctx.now(), config.city.timeZone);
    const ad = pickByWeight(await runningHouseAds(db, slot, day));
    if (ad) await countAdEvent(db, ad.id, day, 'impressions');
    noStore(res);
    const body: AdServeResponse = {
      ad: ad ? { id: ad.id, slot: ad.slot, image_url: imageUrl(ad.image_key), alt: ad.alt_text, click_url: adClickPath(ad.id) } : null,
    };
    res.json(body);
  });

  router.get('/ads/:id/click/', async (req, res) => {
    if (!adsShown(config)) throw new NotFoundError();
    const ad = await findHouseAd(db, idParam(req.params.id));
    if (!ad) throw new NotFoundError();
    await countAdEvent(db, ad.id, cityDay(ctx.now(), config.city.timeZone), 'clicks');
    noStore(res);
    res.redirect(302, ad.link_url);
  });

  return router;
}
