import type { Db } from '../../db';
import type { Config } from '../../config';
import { urls } from '../../../shared/urls';
import { HUB_TYPES } from '../articles/pages';
import { whereArticleIsPublic } from '../articles/queries';
import { whereEventIsPublic } from '../events/queries';
import { whereContestIsPublic } from '../contests/queries';
import { whereVideoIsPublic } from '../videos/queries';

// sitemap.xml is an index of child sitemaps. Each large table is cut into id ranges of
// SITEMAP_CHUNK (page n holds ids ((n-1)·CHUNK, n·CHUNK]): a page is one primary-key range
// scan whatever the table's size, and old pages keep their contents as new rows arrive, so
// crawlers and caches see them unchanged.

export const SITEMAP_CHUNK = 10_000;

export interface SitemapUrl {
  loc: string;
  lastmod?: Date | string | null;
}

interface Section {
  /** Whether the section's feature is on. */
  enabled(config: Config): boolean;
  /** The table whose ids are chunked. */
  table: string;
  rows(db: Db, from: number, to: number, now: Date): Promise<SitemapUrl[]>;
}

const range = (q: ReturnType<Db['queryBuilder']>, col: string, from: number, to: number) => q.where(col, '>', from).where(col, '<=', to).orderBy(col);

export const SECTIONS: Record<string, Section> = {
  articles: {
    enabled: () => true,
    table: 'articles',
    rows: async (db, from, to, now) =>
      (await range(whereArticleIsPublic(db('articles as a'), now).select('a.path', 'a.date_updated') as never, 'a.id', from, to)).map((r: { path: string; date_updated: Date }) => ({
        loc: r.path,
        lastmod: r.date_updated,
      })),
  },
  listings: {
    enabled: (c) => c.flags.listings,
    table: 'listings',
    rows: async (db, from, to) =>
      (await range(db('listings as l').join('listing_types as lt', 'lt.id', 'l.type_id').select('l.id', 'l.slug', 'lt.slug as type_slug', 'l.date_published') as never, 'l.id', from, to)).map(
        (r: { id: number; slug: string; type_slug: string; date_published: Date }) => ({ loc: urls.listing(r.type_slug, r.slug, r.id), lastmod: r.date_published }),
      ),
  },
  events: {
    enabled: (c) => c.flags.events,
    table: 'events',
    rows: async (db, from, to, now) =>
      (await range(whereEventIsPublic(db('events as e'), now).select('e.id', 'e.slug', 'e.date_updated') as never, 'e.id', from, to)).map((r: { id: number; slug: string; date_updated: Date }) => ({
        loc: urls.event(r.slug, r.id),
        lastmod: r.date_updated,
      })),
  },
  contests: {
    enabled: (c) => c.flags.contests,
    table: 'contests',
    rows: async (db, from, to, now) =>
      (await range(whereContestIsPublic(db('contests as c'), now).select('c.name', 'c.date_published') as never, 'c.id', from, to)).map((r: { name: string; date_published: Date }) => ({
        loc: urls.contest(r.name),
        lastmod: r.date_published,
      })),
  },
  videos: {
    enabled: (c) => c.flags.videos,
    table: 'videos',
    rows: async (db, from, to, now) =>
      (await range(whereVideoIsPublic(db('videos as v'), now).select('v.slug', 'v.date_published') as never, 'v.id', from, to)).map((r: { slug: string; date_published: Date }) => ({
        loc: urls.video(r.slug),
        lastmod: r.date_published,
      })),
  },
  'best-of': {
    enabled: (c) => c.flags.bestOf,
    table: 'best_of_lists',
    rows: async (db, from, to) =>
      (await range(db('best_of_lists as b').select('b.slug', 'b.date_published') as never, 'b.id', from, to)).map((r: { slug: string; date_published: Date }) => ({
        loc: urls.bestOfList(r.slug),
        lastmod: r.date_published,
      })),
  },
  neighbourhoods: {
    enabled: (c) => c.flags.listings,
    table: 'neighbourhoods',
    rows: async (db, from, to) => (await range(db('neighbourhoods as n').select('n.slug') as never, 'n.id', from, to)).map((r: { slug: string }) => ({ loc: urls.neighbourhood(r.slug) })),
  },
};

/** The index: one child per chunk of each enabled section, plus the hubs and fixed pages. */
export async function sitemapIndex(db: Db, config: Config): Promise<string[]> {
  const files = ['/sitemaps/pages.xml'];
  const enabled = Object.entries(SECTIONS).filter(([, s]) => s.enabled(config));
  const maxima = await Promise.all(enabled.map(([, s]) => db(s.table).max<{ m: number | null }[]>({ m: 'id' }).first()));
  enabled.forEach(([name], i) => {
    const chunks = Math.ceil(Number(maxima[i]?.m ?? 0) / SITEMAP_CHUNK);
    for (let n = 1; n <= chunks; n += 1) files.push(`/sitemaps/${name}-${n}.xml`);
  });
  return files;
}

export async function sectionUrls(db: Db, config: Config, name: string, n: number, now: Date): Promise<SitemapUrl[] | null> {
  const section = SECTIONS[name];
  if (!section || !section.enabled(config) || n < 1 || n > 100_000) return null;
  return section.rows(db, (n - 1) * SITEMAP_CHUNK, n * SITEMAP_CHUNK, now);
}

/** The hubs and fixed pages of the site, by feature. */
export async function fixedPageUrls(db: Db, config: Config): Promise<SitemapUrl[]> {
  const f = config.flags;
  const paths = ['/', ...HUB_TYPES.filter((h) => h.slug !== 'cannabis').map((h) => urls.articleType(h.slug)), '/archives/', '/newsletters/', '/contact/', '/about', '/masthead/', '/jobs', '/privacy/', '/termsofservice/'];
  if (f.bestOf) paths.push('/best-of/');
  if (f.patioGuide && f.listings) paths.push('/patios/');
  if (f.photoChallenges) paths.push('/photo-challenges/');
  if (f.events) paths.push('/events/');
  if (f.contests) paths.push('/contests/');
  if (f.videos) {
    paths.push('/videos/');
    const cats = await db('video_categories').select('slug').orderBy('id');
    paths.push(...cats.map((c: { slug: string }) => urls.videoCategory(c.slug)));
  }
  if (f.listings) {
    paths.push('/places/', '/neighbourhoods/');
    const types = await db('listing_types as lt').leftJoin('listing_sub_types as lst', 'lst.type_id', 'lt.id').select('lt.slug as type_slug', 'lst.slug as sub_slug').orderBy(['lt.position', 'lst.position']);
    const seen = new Set<string>();
    for (const t of types as Array<{ type_slug: string; sub_slug: string | null }>) {
      if (!seen.has(t.type_slug)) paths.push(urls.listingType(t.type_slug));
      seen.add(t.type_slug);
      if (t.sub_slug) paths.push(urls.listingSubType(t.type_slug, t.sub_slug));
    }
  }
  return paths.map((loc) => ({ loc }));
}
