import { Router } from 'express';
import type { AppContext } from '../../context';
import { page, type PageView } from '../../http/pages/page-view';
import type { HomeData, HomeService } from './service';
import { websiteJsonLd } from './structured-data';
import { addSurrogateKeys, surrogateKeys } from '../../http/surrogate-keys';

// ## Home
export function homePages(ctx: AppContext, home: HomeService): Router {
  const router = Router();
  router.get('/', page('shared-for-guests', async (_req, res) => {
    addSurrogateKeys(res, [surrogateKeys.home]);
    return homePage(ctx, await home.data());
  }));
  return router;
}

function homePage(ctx: AppContext, data: HomeData): PageView {
  return { template: 'home/index.njk', ...data, canonicalUrl: `${ctx.config.site.url}/`, structuredData: websiteJsonLd(ctx.config) };
}
