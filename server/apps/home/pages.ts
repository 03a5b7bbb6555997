import { Router } from 'express';
import type { AppContext } from '../../context';
import { page, type PageView } from '../../http/pages/page-view';
import { homeDataCache, type HomeData } from './service';
import { websiteJsonLd } from './structured-data';

// ## Home
export function homePages(ctx: AppContext): Router {
  const router = Router();
  const homeData = homeDataCache(ctx);
  router.get('/', page('shared-for-guests', async () => homePage(ctx, await homeData())));
  return router;
}

function homePage(ctx: AppContext, data: HomeData): PageView {
  return { template: 'home/index.njk', ...data, canonicalUrl: `${ctx.config.site.url}/`, structuredData: websiteJsonLd(ctx.config) };
}
