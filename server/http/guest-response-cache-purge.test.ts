import express from 'express';
import request from 'supertest';
import { guestResponseCache, purgeCachedPages } from './guest-response-cache';

// A staff edit purges the pages it changes from the page cache: the next reader of those pages
// gets a fresh render, every other page stays cached.

function appWithPages() {
  const renders: Record<string, number> = {};
  const app = express();
  app.use(guestResponseCache({ ttlMs: 60_000 }));
  app.get(['/best-of/a/', '/best-of/b/'], (req, res) => {
    renders[req.path] = (renders[req.path] ?? 0) + 1;
    res.set('Cache-Control', 'public, max-age=60');
    res.locals.sharedCacheControl = 'public, max-age=60';
    res.send(`<p>${req.path} render ${renders[req.path]}</p>`);
  });
  app.post('/edit/', (_req, res) => {
    purgeCachedPages(res, ['/best-of/a/']);
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

test('without the cache, purging does nothing and throws nothing', async () => {
  const app = express();
  app.post('/edit/', (_req, res) => {
    purgeCachedPages(res, ['/best-of/a/']);
    res.status(204).end();
  });
  await request(app).post('/edit/').expect(204);
});
