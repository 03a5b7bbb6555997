import express from 'express';
import request from 'supertest';
import { guestResponseCache } from './guest-response-cache';

// A change purges the pages it changes from the page cache (app.ts does it for each change
// notice, cache/change-notices.ts): those of its paths and those whose Surrogate-Key names one
// of its keys. The next reader of those pages gets a fresh render, every other page stays cached.

function appWithPages() {
  const renders: Record<string, number> = {};
  const app = express();
  const cache = guestResponseCache({ ttlMs: 60_000 });
  app.use(cache);
  app.get(['/best-of/a/', '/best-of/b/'], (req, res) => {
    renders[req.path] = (renders[req.path] ?? 0) + 1;
    res.set('Cache-Control', 'public, max-age=60');
    res.locals.sharedCacheControl = 'public, max-age=60';
    res.send(`<p>${req.path} render ${renders[req.path]}</p>`);
  });
  app.post('/edit/', (_req, res) => {
    cache.purge(['/best-of/a/']);
    res.status(204).end();
  });
  return { app, renders };
}

test('a purged path is rendered again, with every query variant; other pages stay cached', async () => {
  const { app, renders } = appWithPages();
  for (const url of ['/best-of/a/', '/best-of/a/?ordering=name', '/best-of/b/']) {
    await request(app).get(url);
    expect((await request(app).get(url)).headers['x-guest-cache']).toBe('hit');
  }
  expect(renders).toEqual({ '/best-of/a/': 2, '/best-of/b/': 1 });

  await request(app).post('/edit/').expect(204);

  const again = await request(app).get('/best-of/a/');
  expect(again.headers['x-guest-cache']).toBeUndefined();
  expect(again.text).toBe('<p>/best-of/a/ render 3</p>');
  expect((await request(app).get('/best-of/a/?ordering=name')).text).toBe('<p>/best-of/a/ render 4</p>');
  expect((await request(app).get('/best-of/b/')).headers['x-guest-cache']).toBe('hit');
});

// By the keys of a change (its Surrogate-Key vocabulary, http/surrogate-keys.ts): each kept
// answer is indexed by the keys its Surrogate-Key header names.
function appWithKeyedPages() {
  const renders: Record<string, number> = {};
  const app = express();
  const cache = guestResponseCache({ ttlMs: 60_000 });
  app.use(cache);
  const keysOf: Record<string, string | undefined> = {
    '/restaurants/a/': 'place-1 hub-restaurants',
    '/restaurants/b/': 'place-2 hub-restaurants',
    '/news/': 'section-news',
    '/about/': undefined, // names nothing: may show anything
  };
  app.get(Object.keys(keysOf), (req, res) => {
    renders[req.path] = (renders[req.path] ?? 0) + 1;
    res.set('Cache-Control', 'public, max-age=60');
    const keys = keysOf[req.path];
    if (keys) res.set('Surrogate-Key', keys);
    res.locals.sharedCacheControl = 'public, max-age=60';
    res.send(`<p>${req.path} render ${renders[req.path]}</p>`);
  });
  const hits = async () => {
    const out: Record<string, boolean> = {};
    for (const url of Object.keys(keysOf)) out[url] = (await request(app).get(url)).headers['x-guest-cache'] === 'hit';
    return out;
  };
  return { cache, hits, urls: Object.keys(keysOf) };
}

test("a change's keys drop the pages naming one (and those naming none, and its paths); the rest stay hits", async () => {
  const { cache, hits } = appWithKeyedPages();
  await hits();
  expect(Object.values(await hits()).every(Boolean)).toBe(true);

  expect(cache.purgeChange({ keys: ['place-1', 'places'], paths: ['/news/'] })).toBe(3);
  expect(await hits()).toEqual({ '/restaurants/a/': false, '/restaurants/b/': true, '/news/': false, '/about/': false });

  // The hub key goes with both places' pages.
  await hits();
  cache.purgeChange({ keys: ['hub-restaurants'], paths: [] });
  expect(await hits()).toEqual({ '/restaurants/a/': false, '/restaurants/b/': false, '/news/': true, '/about/': false });
});

test('a change with paths and no keys drops those paths only; one with neither drops everything', async () => {
  const { cache, hits } = appWithKeyedPages();
  await hits();
  cache.purgeChange({ paths: ['/restaurants/a/'] });
  expect(await hits()).toEqual({ '/restaurants/a/': false, '/restaurants/b/': true, '/news/': true, '/about/': true });
  expect(cache.purgeChange({ paths: [] })).toBe(4);
  expect(Object.values(await hits()).some(Boolean)).toBe(false);
});
