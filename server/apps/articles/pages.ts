import type { AppContext } from '../../context';
import { NotFoundError, ValidationError } from '../../http/errors';
import { ARTICLE_HUB, ARTICLE_TYPES, PAGE_SIZE } from '../../../shared/constants';
import { urls } from '../../../shared/urls';
import { imageUrl } from '../../../shared/format/image-url';
import { truncate } from '../../../shared/format/text';
import type { BestOfMapState } from '../../../shared/islands';
import { PageRedirect, type PageView } from '../../http/pages/page-view';
import { pagesOrFirstPage, pageWindow, pathWithQuery } from '../../http/pages/page-param';
import { listingPath, toListingDTO } from '../listings/serialize';
import { articleByPath, currentPathOfOldPath, type ArticleDetailRow, articlesOfType, bestOfChanges, bestOfItems, bestOfListBySlug, bestOfLists, latestOfTypeSlug, relatedArticles, slidesOf, BEST_OF_ORDERINGS, type BestOfOrdering } from './queries';
import { bestOfCard, bestOfChangesFeedPath, bestOfChangesPath, bestOfChangeView } from './view-models';
import { bestOfItemListJsonLd, newsArticleJsonLd } from './structured-data';
import { withLiveCards } from './live-card-queries';
import { liveCardsIn } from './story-render';
import { Router, type NextFunction, type Request, type Response } from 'express';
import { page } from '../../http/pages/page-view';
import { trailingSlash } from '../../http/pages/canonical-url';
import { addSavesIsland } from '../saves/page-island';
import { addIsland } from '../../views';
import { addSurrogateKeys, surrogateKeys } from '../../http/surrogate-keys';

// The article pages as functions of the request: each answers the template and its locals.

/** Articles on a hub page: spec 2 §9 pages articles by 15, the latest news (/news/) by 48 (spec 1 §9). */
export const HUB_PAGE_SIZE = 15;
export const hubPageSize = (hubSlug: string): number => (hubSlug === 'news' ? PAGE_SIZE.latestNews : HUB_PAGE_SIZE);
/** The Best of page lists its lists 24 to a page; its latest/featured grids show 6 (spec 2 §9). */
export const BEST_OF_LIST_PAGE_SIZE = 24;
/** A list's page shows its latest changes; the rest are on its changes page, 30 to a page. */
export const BEST_OF_RECENT_CHANGES = 5;
export const BEST_OF_CHANGES_PAGE_SIZE = 30;
export const RELATED_COUNT = 4;

/** The hubs: every article type of the menu except Best of (it has its own page), and the
 * cannabis section (behind the age gate, see site-pages/age-gate.ts). */
export const HUB_TYPES: ReadonlyArray<{ slug: string; name: string }> = [
  ...ARTICLE_TYPES.filter((t) => t.slug !== 'best-of'),
  { slug: 'cannabis', name: 'Cannabis' },
];

const abs = (ctx: AppContext, path: string) => `${ctx.config.site.url}${path}`;

export async function hubPage(ctx: AppContext, req: Request, hub: { slug: string; name: string }): Promise<PageView> {
  const perPage = hubPageSize(hub.slug);
  const { page, limit, offset } = pageWindow(req, perPage);
  const recommends = offset > ARTICLE_HUB.leadCount;
  const [{ count, rows }, featured] = await Promise.all([
    articlesOfType(ctx.dbRead, ctx.now(), hub.slug, { limit, offset }),
    // Enough that the featured stories this page already lists can be left out.
    recommends ? latestOfTypeSlug(ctx.dbRead, ctx.now(), hub.slug, ARTICLE_HUB.recommendedCount + limit, true) : Promise.resolve([]),
  ]);
  const pages = pagesOrFirstPage(req, page, count, perPage);
  const onPage = new Set(rows.map((r) => r.id));
  const lead = offset === 0 ? rows.slice(0, ARTICLE_HUB.leadCount) : [];
  // The type's stored name, as its articles carry it; the menu's name when it has none yet.
  const name = rows[0]?.type_name ?? hub.name;
  const path = urls.articleType(hub.slug);
  return {
    template: 'articles/hub.njk',
    hub: { slug: hub.slug, name, path },
    lead,
    // Under the lead on page one; the whole page on later pages.
    articles: offset === 0 ? (count > ARTICLE_HUB.leadCount ? rows.slice(ARTICLE_HUB.leadCount) : []) : rows,
    recommended: featured.filter((a) => !onPage.has(a.id)).slice(0, ARTICLE_HUB.recommendedCount),
    count,
    page,
    pages,
    pageTitle: page > 1 ? `${name} – Page ${page}` : `${name}`,
    pageDescription: `The latest ${name.toLowerCase()} stories from ${ctx.config.city.name}.`,
    canonicalUrl: abs(ctx, pathWithQuery(path, { page })),
    rssUrl: `${path}rss.xml`,
  };
}

interface ArticlePathParams {
  type: string;
  year: string;
  month: string;
  slug: string;
}

/** The stored path an article URL names, or null when the URL is not an article's shape. */
export function articlePathFrom(p: ArticlePathParams): string | null {
  if (!/^\d{4}$/.test(p.year) || !/^(0[1-9]|1[0-2])$/.test(p.month)) return null;
  return `/${p.type}/${p.year}/${p.month}/${p.slug}/`;
}

async function loadArticle(ctx: AppContext, path: string) {
  const article = await articleByPath(ctx.dbRead, ctx.now(), path);
  if (article) return article;
  // A path the story had before its slug or type changed (or an imported site's): a 301 to where it is now.
  const moved = await currentPathOfOldPath(ctx.dbRead, ctx.now(), path);
  if (moved) throw new PageRedirect(moved, 301);
  throw new NotFoundError();
}

function articleLocals(ctx: AppContext, article: ArticleDetailRow) {
  const social = article.social_image_key ?? article.image_key;
  return {
    article,
    heroImage: article.image_key ? imageUrl(article.image_key, 'hero') : '',
    heroAlt: article.image_alt || article.name,
    heroImageAbsolute: social ? abs(ctx, imageUrl(social, article.social_image_key ? 'social' : 'hero')) : '',
    socialImageSize: article.social_image_key ? { width: 1200, height: 630 } : { width: 1200, height: 800 },
    structuredData: newsArticleJsonLd(ctx.config, article),
    crumbs: [
      { name: 'Home', url: '/' },
      { name: article.type_name, url: urls.articleType(article.type_slug) },
      { name: article.name },
    ],
    pageTitle: article.seo_title || article.name,
    pageDescription: truncate(article.seo_description || article.excerpt || article.body, 160),
  };
}

/**
 * An article page's view for a row already read: the public page, and the newsroom's preview
 * of a story's working copy (which says so and is never indexed). The body is the stored HTML
 * with its live cards drawn from the current records.
 */
export async function articleDetailView(ctx: AppContext, article: ArticleDetailRow, opts: { preview?: boolean } = {}): Promise<PageView> {
  const db = opts.preview ? ctx.db : ctx.dbRead;
  const [related, slides, bodyHtml] = await Promise.all([
    opts.preview ? Promise.resolve([]) : relatedArticles(db, ctx.now(), article, RELATED_COUNT),
    article.is_slideshow ? slidesOf(db, article.id) : Promise.resolve([]),
    article.body_html === null ? Promise.resolve(null) : withLiveCards(db, ctx.now(), ctx.config.city.timeZone, article.body_html),
  ]);
  return {
    template: 'articles/detail.njk',
    ...articleLocals(ctx, article),
    bodyHtml,
    related,
    slides: slides.map(slideView),
    canonicalUrl: article.canonical_url || abs(ctx, article.path),
    preview: Boolean(opts.preview),
  };
}

export async function articlePage(ctx: AppContext, path: string): Promise<PageView> {
  return articleDetailView(ctx, await loadArticle(ctx, path));
}

function slideView(s: Awaited<ReturnType<typeof slidesOf>>[number]) {
  return {
    ...s,
    image: s.image_key ? imageUrl(s.image_key, 'articleCard') : '',
    listingUrl: s.listing_id && s.listing_slug && s.listing_type_slug ? listingPath({ id: s.listing_id, slug: s.listing_slug, type_slug: s.listing_type_slug }) : null,
  };
}

/** One slide per page (?slide=N), so the slideshow works without JavaScript. */
export async function slideshowPage(ctx: AppContext, req: Request, path: string): Promise<PageView> {
  const article = await loadArticle(ctx, path);
  if (!article.is_slideshow) throw new NotFoundError();
  const slides = (await slidesOf(ctx.dbRead, article.id)).map(slideView);
  const { page: n } = pageWindow(req, 1, 'slide');
  if (slides.length === 0 || n > slides.length) throw new NotFoundError();
  const base = `${article.path}slideshow/`;
  return {
    template: 'articles/slideshow.njk',
    ...articleLocals(ctx, article),
    slide: slides[n - 1],
    index: n,
    total: slides.length,
    previousUrl: n > 1 ? (n === 2 ? base : `${base}?slide=${n - 1}`) : null,
    nextUrl: n < slides.length ? `${base}?slide=${n + 1}` : null,
    pageTitle: `${article.name} (${n} of ${slides.length})`,
    canonicalUrl: abs(ctx, n > 1 ? `${base}?slide=${n}` : base),
  };
}

// ## Best of

const BEST_OF_TABS: Array<{ label: string; ordering: BestOfOrdering }> = [
  { label: 'A–Z', ordering: 'name' },
  { label: 'POPULARITY', ordering: '-popularity' },
  { label: 'MOST RECENT', ordering: 'date' },
];
const DEFAULT_BEST_OF_ORDERING: BestOfOrdering = 'date';

function bestOfOrdering(value: unknown): BestOfOrdering {
  if (value === undefined || value === '') return DEFAULT_BEST_OF_ORDERING;
  if (typeof value === 'string' && value in BEST_OF_ORDERINGS) return value as BestOfOrdering;
  throw ValidationError.field('ordering', `Choose one of: ${Object.keys(BEST_OF_ORDERINGS).join(', ')}.`);
}

export async function bestOfPage(ctx: AppContext, req: Request): Promise<PageView> {
  if (!ctx.config.flags.bestOf) throw new NotFoundError();
  const ordering = bestOfOrdering(req.query.ordering);
  const { page, limit, offset } = pageWindow(req, BEST_OF_LIST_PAGE_SIZE);
  const [latest, featured, lists] = await Promise.all([
    latestOfTypeSlug(ctx.dbRead, ctx.now(), 'best-of', PAGE_SIZE.bestOf),
    latestOfTypeSlug(ctx.dbRead, ctx.now(), 'best-of', PAGE_SIZE.bestOf, true),
    bestOfLists(ctx.dbRead, ordering, { limit, offset }),
  ]);
  const pages = pagesOrFirstPage(req, page, lists.count, BEST_OF_LIST_PAGE_SIZE);
  const orderingParam = (o: BestOfOrdering) => (o === DEFAULT_BEST_OF_ORDERING ? '' : o);
  return {
    template: 'articles/best-of.njk',
    latest,
    featured,
    lists: lists.rows.map(bestOfCard),
    count: lists.count,
    page,
    pages,
    listQuery: orderingParam(ordering) ? `ordering=${encodeURIComponent(ordering)}` : '',
    tabs: BEST_OF_TABS.map((t) => ({ label: t.label, url: `${pathWithQuery('/best-of/', { ordering: orderingParam(t.ordering) })}#all-best-of`, active: t.ordering === ordering })),
    pageTitle: page > 1 ? `Best of ${ctx.config.city.name} – Page ${page}` : `Best of ${ctx.config.city.name}`,
    pageDescription: `The best restaurants, bars, shops and things to do in ${ctx.config.city.name}, picked by our editors.`,
    canonicalUrl: abs(ctx, pathWithQuery('/best-of/', { ordering: orderingParam(ordering), page })),
  };
}

/** The best-of-map island's state: the list's title and its places with a position, or null when none has one. */
export function bestOfMapState(ctx: AppContext, title: string, items: Parameters<typeof toListingDTO>[0][]): BestOfMapState | null {
  const listings = items.filter((i) => i.latitude !== null && i.longitude !== null).map((i) => toListingDTO(i, ctx.config.site.url));
  return listings.length ? { title, listings } : null;
}

export async function bestOfListPage(ctx: AppContext, slug: string): Promise<PageView & { mapState: BestOfMapState | null }> {
  if (!ctx.config.flags.bestOf) throw new NotFoundError();
  const list = await bestOfListBySlug(ctx.dbRead, ctx.now(), slug);
  if (!list) throw new NotFoundError();
  const [items, changes] = await Promise.all([bestOfItems(ctx.dbRead, list.id), bestOfChanges(ctx.dbRead, list.id, { limit: BEST_OF_RECENT_CHANGES, offset: 0 })]);
  const path = urls.bestOfList(list.slug);
  return {
    template: 'articles/best-of-list.njk',
    list,
    // "How we chose" and the change log: the same for every reader, so the page stays cacheable.
    changes: changes.rows.map(bestOfChangeView),
    changeCount: changes.count,
    changesUrl: bestOfChangesPath(list.slug),
    rssUrl: bestOfChangesFeedPath(list.slug),
    items: items.map((item) => ({
      ...item,
      url: ctx.config.flags.listings ? listingPath(item) : null,
      image: item.image_key ? imageUrl(item.image_key, 'listingCard') : '',
      neighbourhoodUrl: item.neighbourhood_slug && ctx.config.flags.listings ? urls.neighbourhood(item.neighbourhood_slug) : null,
    })),
    heroImage: list.image_key ? imageUrl(list.image_key, 'hero') : '',
    // The full-screen map (islands/best-of-map) needs the places that have a position.
    mapState: bestOfMapState(ctx, list.title, items),
    structuredData: bestOfItemListJsonLd(ctx.config, list.title, items),
    crumbs: [{ name: 'Home', url: '/' }, { name: `Best of ${ctx.config.city.name}`, url: '/best-of/' }, { name: list.title }],
    pageTitle: list.title,
    pageDescription: truncate(list.intro || `${list.title}: our picks in ${ctx.config.city.name}.`, 160),
    canonicalUrl: abs(ctx, path),
  };
}

/** /best-of/{slug}/changes/: every change to a list, newest first, each with the editor's reason. */
export async function bestOfChangesPage(ctx: AppContext, req: Request, slug: string): Promise<PageView> {
  if (!ctx.config.flags.bestOf) throw new NotFoundError();
  const list = await bestOfListBySlug(ctx.dbRead, ctx.now(), slug);
  if (!list) throw new NotFoundError();
  const { page, limit, offset } = pageWindow(req, BEST_OF_CHANGES_PAGE_SIZE);
  const changes = await bestOfChanges(ctx.dbRead, list.id, { limit, offset });
  const pages = pagesOrFirstPage(req, page, changes.count, BEST_OF_CHANGES_PAGE_SIZE);
  const path = bestOfChangesPath(list.slug);
  const listPath = urls.bestOfList(list.slug);
  return {
    template: 'articles/best-of-changes.njk',
    list,
    listUrl: listPath,
    changesUrl: path,
    changes: changes.rows.map(bestOfChangeView),
    count: changes.count,
    page,
    pages,
    rssUrl: bestOfChangesFeedPath(list.slug),
    crumbs: [{ name: 'Home', url: '/' }, { name: `Best of ${ctx.config.city.name}`, url: '/best-of/' }, { name: list.title, url: listPath }, { name: 'Changes' }],
    pageTitle: page > 1 ? `${list.title}: changes – Page ${page}` : `${list.title}: changes`,
    pageDescription: `Every change to ${list.title}: places added, removed and moved, with our editors' reasons.`,
    canonicalUrl: abs(ctx, pathWithQuery(path, { page })),
  };
}

// Article pages. Mounted after every fixed-path app (see apps/index.ts): the detail route is a
// pattern, and it passes on anything that is not /{type}/{yyyy}/{mm}/{slug}/.
export function articlesPages(ctx: AppContext): Router {
  const router = Router();
  const shared = 'shared-for-guests';

  // ## Best of
  // Every list's change announces `section-best-of` and its `list-ID` (surrogate-keys.ts bestOfListKeys).
  router.get('/best-of/', trailingSlash, page(shared, (req, res) => {
    addSurrogateKeys(res, [surrogateKeys.section('best-of')]);
    return bestOfPage(ctx, req);
  }));
  router.get('/best-of/:slug/', trailingSlash, page(shared, async (req, res) => {
    const view = await bestOfListPage(ctx, String(req.params.slug));
    if (view.mapState) addIsland(res, 'best-of-map', view.mapState);
    // The list, and the places it shows (a place's change announces its key).
    addSurrogateKeys(res, [surrogateKeys.list((view.list as { id: number }).id), ...(view.items as { id: number }[]).map((item) => surrogateKeys.place(item.id))]);
    return view;
  }));
  router.get('/best-of/:slug/changes/', trailingSlash, page(shared, async (req, res) => {
    const view = await bestOfChangesPage(ctx, req, String(req.params.slug));
    addSurrogateKeys(res, [surrogateKeys.list((view.list as { id: number }).id)]);
    return view;
  }));

  // ## Hubs, one per article type
  for (const hub of HUB_TYPES) {
    router.get(`/${hub.slug}/`, trailingSlash, page(shared, (req, res) => {
      addSurrogateKeys(res, [surrogateKeys.section(hub.slug)]);
      return hubPage(ctx, req, hub);
    }));
  }

  // ## Article detail and its slideshow, at the article's stored path
  router.get('/:type/:year/:month/:slug/', articleShaped, trailingSlash, page(shared, (req, res) => articleWithSaves(ctx, req, res)));
  router.get('/:type/:year/:month/:slug/slideshow/', articleShaped, trailingSlash, page(shared, (req, res) => slideshowPage(ctx, req, res.locals.articlePath)));
  return router;
}

/**
 * Old addresses of stories that are not of a story's shape (an imported WordPress site's
 * /2019/05/17/slug/ and /?p=123): a 301 to the story's path when the path history knows them.
 * `query` is mounted before the home page (it answers only /?p= and /?page_id=), `rest` after
 * every other page, where a path nothing answered would be a 404.
 */
export function articleOldPathRedirects(ctx: AppContext): { query: Router; rest: Router } {
  const redirectIfKnown = async (path: string, res: Response, next: NextFunction) => {
    const moved = await currentPathOfOldPath(ctx.dbRead, ctx.now(), path);
    if (moved) return res.redirect(301, moved);
    next();
  };
  const query = Router();
  query.get('/', async (req, res, next) => {
    const id = typeof req.query.p === 'string' ? req.query.p : typeof req.query.page_id === 'string' ? req.query.page_id : null;
    if (!id || !/^\d{1,10}$/.test(id)) return next();
    await redirectIfKnown(`/?${typeof req.query.p === 'string' ? 'p' : 'page_id'}=${id}`, res, next);
  });
  const rest = Router();
  rest.get('/*splat', async (req, res, next) => {
    if (req.path.length > 1000) return next();
    await redirectIfKnown(req.path, res, next);
  });
  return { query, rest };
}

async function articleWithSaves(ctx: AppContext, req: Request, res: Response) {
  const article = await loadArticle(ctx, res.locals.articlePath);
  const view = await articleDetailView(ctx, article);
  // The story and the related stories it lists (a change to one drops the page). Not its
  // section: every publish there would drop every story page of it, and a new story reaches the
  // related list when the page expires.
  // And the places its slides and live cards name: a place that closes says "Closed" there at once.
  const places = new Set([
    ...(view.slides as Array<{ listing_id: number | null }>).flatMap((sl) => (sl.listing_id ? [sl.listing_id] : [])),
    ...liveCardsIn(article.body_html ?? '').flatMap((c) => (c.kind === 'place' ? [c.id] : [])),
  ]);
  addSurrogateKeys(res, [surrogateKeys.story(article.id), ...(view.related as Array<{ id: number }>).map((r) => surrogateKeys.story(r.id)), ...[...places].map((id) => surrogateKeys.place(id))]);
  addSavesIsland(ctx, req, res, ['articleBookmarks']);
  return view;
}

/** Lets only /{type}/{yyyy}/{mm}/{slug}/ through, with the stored path it names in res.locals. */
function articleShaped(req: Request, res: Response, next: NextFunction): void {
  const path = articlePathFrom(req.params as { type: string; year: string; month: string; slug: string });
  if (!path) return next('route');
  res.locals.articlePath = path;
  next();
}
