// The six page types the phone benchmarks load (npm run lighthouse, npm run bench:load-tasks),
// found on a running site rather than written down: the home page, the newest article and a
// listing page with a map (from the sitemaps), the first listing hub and the events hub (from
// /sitemaps/pages.xml), and a site search.

export interface PageType {
  page: string;
  path: string;
}

const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1].replace(/&amp;/g, '&'));

export async function findPageTypes(base: string, opts: { only?: string; searchWords?: string } = {}): Promise<PageType[]> {
  const only = opts.only ?? '';
  const searchWords = opts.searchWords ?? 'pizza';
  const get = async (pathOrUrl: string) => {
    const res = await fetch(new URL(pathOrUrl, base), { redirect: 'follow' });
    return { status: res.status, body: await res.text() };
  };
  // A sitemap <loc> is absolute on SITE_URL; the path is what we ask the server under test for.
  const pathOf = (loc: string) => {
    const u = new URL(loc, base);
    return u.pathname + u.search;
  };

  const index = await get('/sitemap.xml');
  if (index.status !== 200) throw new Error(`${base}/sitemap.xml answered ${index.status}: is the production server running there?`);
  const files = locs(index.body).map(pathOf);
  const chunks = (section: string) => files.filter((f) => new RegExp(`/sitemaps/${section}-\\d+\\.xml$`).test(f));
  const fixed = locs((await get('/sitemaps/pages.xml')).body).map(pathOf);

  // The newest article: the last entry of the last chunk (ids ascend), what the home page leads with.
  const articleChunk = chunks('articles').at(-1);
  const article = articleChunk ? locs((await get(articleChunk)).body).map(pathOf).at(-1) : undefined;

  // A listing page that has a map (the page type whose map the issue is about); the newest first.
  let listing: string | undefined;
  for (const chunk of chunks('listings').reverse()) {
    for (const p of locs((await get(chunk)).body).map(pathOf).reverse().slice(0, 20)) {
      if ((await get(p)).body.includes('data-island="listing-map"')) {
        listing = p;
        break;
      }
    }
    if (listing) break;
  }

  // Without /restaurants/, the first hub in pages.xml that lists places.
  let hub: string | undefined = fixed.includes('/restaurants/') ? '/restaurants/' : undefined;
  for (const p of hub ? [] : fixed.filter((f) => /^\/[a-z-]+\/$/.test(f))) {
    if ((await get(p)).body.includes('data-island="listing-search"')) {
      hub = p;
      break;
    }
  }

  const pages: Array<{ page: string; path: string | undefined }> = [
    { page: 'home', path: '/' },
    { page: 'article', path: article },
    { page: 'listing hub', path: hub },
    { page: 'listing', path: listing },
    { page: 'events hub', path: fixed.includes('/events/') ? '/events/' : undefined },
    { page: 'search', path: `/search?q=${encodeURIComponent(searchWords)}` },
  ];
  for (const p of pages) if (!p.path) console.warn(`no ${p.page} page found on ${base}; skipped`);
  return pages.filter((p): p is PageType => Boolean(p.path) && p.page.includes(only));
}
