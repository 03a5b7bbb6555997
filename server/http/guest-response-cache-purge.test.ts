import express from 'express';
import request from 'supertest';
import { guestResponseCache } from './guest-response-cache';

// A change purges the pages it changes from the page cache (app.ts does it for each change
// notice, cache/change-notices.ts): the next reader of those pages gets a fresh render, every
// other page stays cached.

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
