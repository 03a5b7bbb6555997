import { Router } from 'express';
import type { AppContext } from '../../context';
import { HUB_TYPES } from '../articles/page-service';
import { robotsTxt, rssXml, sitemapIndexXml, sitemapPageXml } from './handlers';
import { bestOfChangesRss } from './best-of-changes-feed';

export function seoRoutes(ctx: AppContext): Router {
  const router = Router();

  // ## Crawlers
  router.get('/robots.txt', robotsTxt(ctx));
  router.get('/sitemap.xml', sitemapIndexXml(ctx));
  router.get('/sitemaps/:file', sitemapPageXml(ctx));

  // ## Feeds (the cannabis section, behind its age gate, has none)
  router.get('/rss.xml', rssXml(ctx, null));
  for (const hub of HUB_TYPES.filter((h) => h.slug !== 'cannabis')) router.get(`/${hub.slug}/rss.xml`, rssXml(ctx, hub.slug, hub.name));
  router.get('/best-of/:slug/changes/rss.xml', bestOfChangesRss(ctx));
  return router;
}
