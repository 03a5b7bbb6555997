import type { Request, Response } from 'express';
import type { AppContext } from '../../context';
import { NotFoundError } from '../../http/errors';
import { articleTypeBySlug, latestArticles } from '../articles/queries';
import { fixedPageUrls, sectionUrls, sitemapIndex, type SitemapUrl } from './sitemap-queries';
import { latestArticlesOfType } from './queries';
import { rssFeed, RSS_ITEMS } from './rss';
import { sendXml, xmlEscape } from './xml';
import { Router } from 'express';
import { HUB_TYPES } from '../articles/pages';
import { bestOfChangesRss } from './best-of-changes-feed';
import { addSurrogateKeys, surrogateKeys } from '../../http/surrogate-keys';

// Search-engine files. They are the same for everyone: public, cached for an hour (the
// sitemaps) or ten minutes (feeds), with ETags from Express.

const lastmod = (d: SitemapUrl['lastmod']) => (d ? `<lastmod>${new Date(d).toISOString()}</lastmod>` : '');

export function robotsTxt(ctx: AppContext) {
  return (_req: Request, res: Response) => {
    const lines = ['User-agent: *', 'Disallow: /api/', 'Disallow: /accounts/', 'Disallow: /profiles/', 'Disallow: /search', 'Disallow: /age-gate/', '', `Sitemap: ${ctx.config.site.url}/sitemap.xml`, ''];
    res.set('Cache-Control', 'public, max-age=86400').type('text/plain').send(lines.join('\n'));
  };
}

/** What the sitemaps list: stories (every story's change names the feeds), places and events. */
const SITEMAP_KEYS = [surrogateKeys.feeds, surrogateKeys.places, surrogateKeys.events];

export function sitemapIndexXml(ctx: AppContext) {
  return async (_req: Request, res: Response) => {
    addSurrogateKeys(res, SITEMAP_KEYS);
    const files = await sitemapIndex(ctx.db, ctx.config);
    const body = files.map((f) => `<sitemap><loc>${xmlEscape(ctx.config.site.url + f)}</loc></sitemap>`).join('\n');
    sendXml(res, `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${body}\n</sitemapindex>\n`, 3600);
  };
}

/** /sitemaps/pages.xml and /sitemaps/{section}-{n}.xml, written out as rows are mapped. */
export function sitemapPageXml(ctx: AppContext) {
  return async (req: Request, res: Response) => {
    const file = String(req.params.file);
    let rows: SitemapUrl[] | null = null;
    if (file === 'pages.xml') rows = await fixedPageUrls(ctx.db, ctx.config);
    else {
      const m = /^([a-z-]+)-(\d{1,6})\.xml$/.exec(file);
      if (m) rows = await sectionUrls(ctx.db, ctx.config, m[1], Number(m[2]), ctx.now());
    }
    if (!rows) throw new NotFoundError();
    addSurrogateKeys(res, SITEMAP_KEYS);
    const site = ctx.config.site.url;
    const body = rows.map((r) => `<url><loc>${xmlEscape(site + r.loc)}</loc>${lastmod(r.lastmod)}</url>`).join('\n');
    sendXml(res, `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${body}\n</urlset>\n`, 3600);
  };
}

/** /rss.xml: everything; /{type}/rss.xml: one article type (/news/rss.xml is the News type). */
export function rssXml(ctx: AppContext, typeSlug: string | null, fallbackName = '') {
  return async (_req: Request, res: Response) => {
    // Every story's change names the feeds (surrogate-keys.ts storyKeys): the edge drops them at once.
    addSurrogateKeys(res, [surrogateKeys.feeds]);
    const { city, site } = ctx.config;
    if (!typeSlug) {
      const rows = await latestArticles(ctx.db, ctx.now(), RSS_ITEMS, { excludeTypeSlugs: ['cannabis'] });
      return sendXml(res, rssFeed(ctx.config, { title: site.name, path: '/', description: `The latest from ${site.name}, ${city.name}.` }, rows), 600, 'application/rss+xml');
    }
    const type = await articleTypeBySlug(ctx.db, typeSlug);
    const rows = type ? await latestArticlesOfType(ctx.db, ctx.now(), type.id, RSS_ITEMS) : [];
    const name = type?.name ?? fallbackName;
    sendXml(res, rssFeed(ctx.config, { title: `${name} | ${site.name}`, path: `/${typeSlug}/`, description: `The latest ${name.toLowerCase()} from ${site.name}, ${city.name}.` }, rows), 600, 'application/rss+xml');
  };
}

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
