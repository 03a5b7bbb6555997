import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import type { Express } from 'express';
import request from 'supertest';
import { createApp } from '../app';
import { createLogger } from '../logger';
import { createArticle } from '../testing/fixtures';
import { rawGet } from '../testing/raw-get';
import { createMember, createTestContext, memberAgent, type TestContext } from '../testing/test-app';
import { cacheHitFastPath } from './cache-hit-fast-path';

// The production app serves the page cache's hits before Express (cache-hit-fast-path.ts):
// Express's router never sees them, and they carry what the same hit served inside Express
// carried: every header the steps before the cache set, its request id, its figures and its
// access-log line, Express's 304 and HEAD rules.

const TOKEN = 'fast-path-metrics-token-0123456789';

type Line = Record<string, unknown>;

/** Headers a hit and the answer it replays may differ in. */
const PER_ANSWER = ['date', 'x-request-id', 'x-guest-cache', 'etag', 'server-timing', 'content-length', 'connection', 'keep-alive'];

const comparable = (headers: Record<string, string>) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !PER_ANSWER.includes(name)));

describe('cache hits served before Express', () => {
  let t: TestContext;
  let app: Express;
  const lines: Line[] = [];
  let routed = 0;

  beforeAll(async () => {
    t = await createTestContext({ NODE_ENV: 'production', SESSION_SECRET: 'f'.repeat(48), METRICS_TOKEN: TOKEN, INSTANCE_NAME: 'web-7' });
    const sink = new Writable({
      write(chunk, _enc, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    app = createApp({ ...t.ctx, logger: createLogger({ logLevel: 'info' }, sink) }, { watchManifest: false });
    // Counts the requests that reach Express's router (every request Express handles does).
    const router = app.router as unknown as { handle: (...args: unknown[]) => unknown };
    const handle = router.handle.bind(router);
    router.handle = (...args: unknown[]) => {
      routed += 1;
      return handle(...args);
    };
    await createArticle(t.ctx.db, { name: 'Front page story' });
  });
  afterAll(() => t.close());

  const routedBy = async <T>(send: () => Promise<T>): Promise<{ answer: T; routed: number }> => {
    const before = routed;
    const answer = await send();
    return { answer, routed: routed - before };
  };

  test('a hit never reaches the router and carries the headers of the answer it replays', async () => {
    const miss = await routedBy(() => request(app).get('/?front=1').set('Accept-Encoding', 'identity'));
    expect(miss.routed).toBe(1);
    expect(miss.answer.status).toBe(200);
    expect(miss.answer.headers['x-guest-cache']).toBeUndefined();
    const hit = await routedBy(() => request(app).get('/?front=1').set('Accept-Encoding', 'identity'));
    expect(hit.routed).toBe(0);
    expect(hit.answer.headers['x-guest-cache']).toBe('hit');
    expect(hit.answer.text).toBe(miss.answer.text);
    expect(hit.answer.headers.etag).toBeDefined();
    expect(hit.answer.headers['content-length']).toBe(String(Buffer.byteLength(miss.answer.text)));
    // helmet's headers, the instance's, Cache-Control, Vary, the type, the edge's keys: all of them.
    expect(comparable(hit.answer.headers)).toEqual(comparable(miss.answer.headers));
    expect(hit.answer.headers['content-security-policy']).toMatch(/default-src 'self'/);
    expect(hit.answer.headers['x-instance']).toBe('web-7');
    expect(hit.answer.headers.vary).toMatch(/Accept-Encoding/);
  });

  test('compressed for a client that asks, 304 for its own copy, headers alone for HEAD', async () => {
    await request(app).get('/?front=2');
    const gzip = await routedBy(() => request(app).get('/?front=2').set('Accept-Encoding', 'gzip'));
    expect(gzip.routed).toBe(0);
    expect(gzip.answer.headers['content-encoding']).toBe('gzip');
    expect(gzip.answer.text).toContain('Front page story');
    const brotli = await request(app).get('/?front=2').set('Accept-Encoding', 'gzip, deflate, br');
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers.etag).toBe(gzip.answer.headers.etag);

    const notModified = await routedBy(() => request(app).get('/?front=2').set('If-None-Match', gzip.answer.headers.etag));
    expect(notModified.routed).toBe(0);
    expect(notModified.answer.status).toBe(304);
    expect(notModified.answer.text).toBe('');
    expect(notModified.answer.headers['content-type']).toBeUndefined();
    expect(notModified.answer.headers.etag).toBe(gzip.answer.headers.etag);
    // The browser asks past its copy (a reload): the whole answer again.
    const reload = await request(app).get('/?front=2').set('If-None-Match', gzip.answer.headers.etag).set('Cache-Control', 'no-cache');
    expect(reload.status).toBe(200);
    const stale = await request(app).get('/?front=2').set('If-None-Match', '"not-this-one"');
    expect(stale.status).toBe(200);

    const head = await routedBy(() => request(app).head('/?front=2').set('Accept-Encoding', 'identity'));
    expect(head.routed).toBe(0);
    expect(head.answer.status).toBe(200);
    expect(head.answer.headers['content-length']).toBe(String(Buffer.byteLength(gzip.answer.text)));
    expect(head.answer.text ?? '').toBe('');
  });

  test('each hit has its own request id, its access-log line and its count under its route', async () => {
    await request(app).get('/?front=3');
    const scrape = async () => (await request(app).get('/metrics').set('Authorization', `Bearer ${TOKEN}`)).text;
    const count = (text: string) => Number(/^guide_http_requests_total\{method="GET",route="\/",status="2xx"\} (\d+)$/m.exec(text)?.[1] ?? 0);
    const before = count(await scrape());
    lines.length = 0;
    const kept = await request(app).get('/?front=3').set('X-Request-Id', 'edge-1234.ab_c');
    expect(kept.headers['x-guest-cache']).toBe('hit');
    expect(kept.headers['x-request-id']).toBe('edge-1234.ab_c');
    const made = await request(app).get('/?front=3').set('X-Request-Id', 'not a sane id');
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const completed = lines.filter((l) => l.msg === 'request completed');
    expect(completed).toEqual([
      expect.objectContaining({ reqId: 'edge-1234.ab_c', req: expect.objectContaining({ method: 'GET', url: '/?front=3' }), res: { status: 200 } }),
      expect.objectContaining({ reqId: made.headers['x-request-id'], res: { status: 200 } }),
    ]);
    expect(count(await scrape()) - before).toBe(2);
  });

  test("a member's session still goes through Express to be renewed, then the member is served in front", async () => {
    await request(app).get('/?front=4');
    const agent = await memberAgent({ app, ctx: t.ctx }, await createMember(t.ctx));
    const renewing = await routedBy(() => agent.get('/?front=4'));
    expect(renewing.routed).toBe(1);
    expect(renewing.answer.headers['x-guest-cache']).toBe('hit');
    const served = await routedBy(() => agent.get('/?front=4'));
    expect(served.routed).toBe(0);
    expect(served.answer.headers['x-guest-cache']).toBe('hit');
    expect(served.answer.headers['set-cookie']).toBeUndefined();
  });

  test('a GET with a body, and a cookie the cache does not know, go through Express', async () => {
    await request(app).get('/?front=5');
    const withBody = await routedBy(() => request(app).get('/?front=5').set('Content-Type', 'text/plain').send('hello'));
    expect(withBody.routed).toBe(1);
    expect(withBody.answer.status).toBe(200);
    const unknownCookie = await routedBy(() => request(app).get('/?front=5').set('Cookie', 'tracking=1'));
    expect(unknownCookie.routed).toBe(1);
    expect(unknownCookie.answer.headers['x-guest-cache']).toBeUndefined();
  });

  test('request targets that are not plain paths are answered, and the server goes on', async () => {
    await request(app).get('/');
    for (const target of ['//', '///', '/\\', '//[', '//evil.example/', 'http://', 'http://[']) {
      // Answered as Express routes them (`//` and a lone backslash as the home page, the others
      // as no page): never a 500, never the process's end.
      const answer = await rawGet(app, target, {});
      expect([target, answer.status < 500]).toEqual([target, true]);
    }
    // Not a path at all: refused (the session middleware skips such a target).
    expect((await rawGet(app, '*', {})).status).toBe(400);
    expect((await request(app).get('/')).headers['x-guest-cache']).toBe('hit');
  });
});

test('a throw in front of Express goes to Express unanswered, or ends the answer it began', async () => {
  let failing: 'before' | 'after' = 'before';
  const front = cacheHitFastPath({
    serveBeforeSession: (_req, res, beforeServing) => {
      beforeServing?.();
      if (failing === 'after') res.writeHead(200).write('partial');
      throw new Error('a bug in the look-up');
    },
    everyAnswer: [],
  });
  const server = http.createServer((req, res) => {
    if (front.serve(req, res)) return;
    front.readFrontHeaders(req, res, () => res.end('express answered'));
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  try {
    expect(await (await fetch(url)).text()).toBe('express answered'); // no headers read yet: not in front
    expect(await (await fetch(url)).text()).toBe('express answered'); // the throw, before anything was sent
    failing = 'after';
    await expect(fetch(url).then((r) => r.text())).rejects.toThrow(); // cut off, not left hanging
    failing = 'before';
    expect(await (await fetch(url)).text()).toBe('express answered'); // and the server goes on
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

