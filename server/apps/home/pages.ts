import { Router } from 'express';
import type { AppContext } from '../../context';
import { publicPage } from '../site-pages/public-page';
import { homeData } from './service';
import { websiteJsonLd } from './structured-data';

// ## Home
export function homePages(ctx: AppContext): Router {
  const router = Router();
  router.get('/', ...publicPage('content'), async (_req, res) => {
    res.render('home/index.njk', { ...(await homeData(ctx)), canonicalUrl: `${ctx.config.site.url}/`, structuredData: websiteJsonLd(ctx.config) });
  });
  return router;
}
