import { Router } from 'express';
import type { AppContext } from '../../context';
import { page, type PageView } from '../../http/pages/page-view';
import { homeData } from './service';
import { websiteJsonLd } from './structured-data';

// ## Home
export function homePages(ctx: AppContext): Router {
  const router = Router();
  router.get('/', page('shared-for-guests', () => homePage(ctx)));
  return router;
}

async function homePage(ctx: AppContext): Promise<PageView> {
  return { template: 'home/index.njk', ...(await homeData(ctx)), canonicalUrl: `${ctx.config.site.url}/`, structuredData: websiteJsonLd(ctx.config) };
}
