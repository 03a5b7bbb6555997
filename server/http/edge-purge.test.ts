import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import request from 'supertest';
import type { Knex } from 'knex';
import { createChangeNotices } from '../cache/change-notices';
import { addSurrogateKeys, storyKeys, SURROGATE_KEY_HEADER } from './surrogate-keys';
import { setCachePolicy } from './pages/cache-policy';
import { createEdgePurger, EDGE_PURGE_HEADER, purgeEdgeOnChange } from './edge-purge';
import { freePort } from '../testing/free-port';

// The keys an answer names (surrogate-keys.ts) and the purge a change sends to the edge
// (edge-purge.ts), without an edge: a local server stands in for Varnish. The whole path
// through Varnish is test/stack/edge-varnish.postgres.test.ts.

describe('Surrogate-Key', () => {
  test('keys accumulate in one header, deduplicated and cleaned; a private answer names none', async () => {
    const app = express();
    app.get('/shared', (req, res) => {
      addSurrogateKeys(res, ['story-12', 'section-news']);
      addSurrogateKeys(res, ['section-news', 'Home', 'bad key!']);
      setCachePolicy(req, res, 'shared-for-guests');
      res.send('ok');
    });
    app.get('/private', (req, res) => {
      addSurrogateKeys(res, ['story-12']);
      setCachePolicy(req, res, 'private');
      res.send('ok');
    });
    const shared = await request(app).get('/shared').expect(200);
    expect(shared.headers[SURROGATE_KEY_HEADER.toLowerCase()]).toBe('story-12 section-news home bad-key-');
    const priv = await request(app).get('/private').expect(200);
    expect(priv.headers[SURROGATE_KEY_HEADER.toLowerCase()]).toBeUndefined();
  });

  test('a story’s change names its page, its section, the latest news, the home and the feeds', () => {
    expect(storyKeys(7, 'city-hall')).toEqual(['story-7', 'section-city-hall', 'section-news', 'home', 'feeds']);
  });
});

describe('edge purge', () => {
  let server: http.Server;
  let url: string;
  const seen: Array<{ method: string; keys: string | undefined }> = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      seen.push({ method: req.method ?? '', keys: req.headers[EDGE_PURGE_HEADER] as string | undefined });
      res.end('Purged');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));
  beforeEach(() => (seen.length = 0));

  test('a change announced here purges its keys at the edge once, then again after repeatMs', async () => {
    const notices = createChangeNotices({ db: {} as Knex });
    const purger = createEdgePurger({ urls: [url], repeatMs: 150 });
    purgeEdgeOnChange(notices, purger);
    await notices.announce({ subject: 'story:7', paths: [], keys: storyKeys(7, 'news') });
    // announce() waited for the purge.
    expect(seen).toEqual([{ method: 'PURGE', keys: 'story-7 section-news home feeds' }]);
    await new Promise((r) => setTimeout(r, 400));
    expect(seen).toHaveLength(2);
    // A change without keys tells the edge nothing.
    await notices.announce({ subject: 'reconnected', paths: [] });
    expect(seen).toHaveLength(2);
    purger.close();
  });

  test('an edge that cannot be reached is logged; the change still succeeds', async () => {
    const warnings: unknown[] = [];
    const logger = { warn: (o: unknown) => warnings.push(o), info: () => undefined };
    const down = `http://127.0.0.1:${await freePort()}/`;
    const notices = createChangeNotices({ db: {} as Knex, logger });
    purgeEdgeOnChange(notices, createEdgePurger({ urls: [down, url], repeatMs: 0, logger, timeoutMs: 1_000 }));
    await expect(notices.announce({ subject: 'story:8', paths: [], keys: ['story-8'] })).resolves.toBeUndefined();
    expect(warnings).toHaveLength(1);
    // The other edge node was purged all the same.
    expect(seen).toEqual([{ method: 'PURGE', keys: 'story-8' }]);
  });
});
