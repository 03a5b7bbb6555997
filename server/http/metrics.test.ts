import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Express } from 'express';
import request from 'supertest';
import { createTestContext, type TestContext } from '../testing/test-app';
import { createApp } from '../app';
import { loadConfig } from '../config';
import { createLogger } from '../logger';
import { ROOT } from '../paths';
import { cacheTallies } from '../cache/memory-cache';
import type { Replica, ReplicaStatus } from '../db/replica';
import { guestResponseCache } from './guest-response-cache';
import { bearerMatches, startMetricsServer } from './metrics-endpoint';
import { requestId } from './request-id';

// The figures: /metrics behind its token (404 without one configured), the request, latency,
// query, pool and cache figures moving with traffic under the right route template and status;
// the request id kept or made, in the answer and the log lines; slow queries logged with their
// route; the figures' own port.

const TOKEN = 'test-metrics-token-0123456789abcdef';

type Line = Record<string, unknown>;

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a scrape in Prometheus' text format. */
function parse(text: string): Sample[] {
  return text.split('\n').flatMap((line) => {
    const m = /^([A-Za-z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)$/.exec(line);
    if (!m || line.startsWith('#')) return [];
    const labels = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]));
    return [{ name: m[1], labels, value: Number(m[3]) }];
  });
}

/** The value of the sample with that name and (at least) those labels; 0 when absent. */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  return found?.value ?? 0;
}

const has = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.some((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));

/** The server's logger, at info, its lines parsed into `lines`. */
function loggerInto(lines: Line[]) {
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return createLogger({ logLevel: 'info' }, sink);
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 2));
};

describe('figures for Prometheus', () => {
  let t: TestContext;
  let app: Express;
  let logger: ReturnType<typeof createLogger>;
  const lines: Line[] = [];

  beforeAll(async () => {
    t = await createTestContext({ METRICS_TOKEN: TOKEN, SLOW_QUERY_MS: '0' });
    logger = loggerInto(lines);
    app = createApp({ ...t.ctx, logger }, { watchManifest: false });
  });
  afterAll(() => t.close());

  const scrape = async (): Promise<Sample[]> => {
    const res = await request(app).get('/metrics').set('Authorization', `Bearer ${TOKEN}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return parse(res.text);
  };

  test('/metrics wants the token; without METRICS_TOKEN it is the site 404', async () => {
    expect((await request(app).get('/metrics')).status).toBe(401);
    const wrong = await request(app).get('/metrics').set('Authorization', `Bearer ${TOKEN}x`);
    expect(wrong.status).toBe(401);
    expect(wrong.headers['www-authenticate']).toBe('Bearer realm="metrics"');
    expect(wrong.text).not.toMatch(/guide_/);
    expect((await request(t.rebuild({ METRICS_TOKEN: '' })).get('/metrics').set('Authorization', `Bearer ${TOKEN}`)).status).toBe(404);
    // The app built last on a database sets how its queries are logged: this file's, again.
    app = createApp({ ...t.ctx, logger }, { watchManifest: false });
    expect(bearerMatches(`Bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(bearerMatches(`bearer  ${TOKEN} `, TOKEN)).toBe(true);
    expect(bearerMatches(TOKEN, TOKEN)).toBe(false);
    expect(bearerMatches(undefined, TOKEN)).toBe(false);
  });

  test('requests move by route template and status class, with their latency; queries and pools are there', async () => {
    const before = await scrape();
    expect((await request(app).get('/')).status).toBe(200);
    expect((await request(app).get('/api/v2/articles/?limit=2')).status).toBe(200);
    expect((await request(app).get('/no-such-page/at-all/')).status).toBe(404);
    const after = await scrape();
    const moved = (name: string, labels: Record<string, string>) => valueOf(after, name, labels) - valueOf(before, name, labels);

    expect(moved('guide_http_requests_total', { method: 'GET', route: '/', status: '2xx' })).toBe(1);
    expect(moved('guide_http_requests_total', { method: 'GET', route: '/api/v2/articles/', status: '2xx' })).toBe(1);
    expect(moved('guide_http_requests_total', { method: 'GET', route: 'unmatched', status: '4xx' })).toBe(1);
    expect(moved('guide_http_request_duration_seconds_count', { method: 'GET', route: '/api/v2/articles/' })).toBe(1);
    expect(moved('guide_http_request_duration_seconds_bucket', { method: 'GET', route: '/api/v2/articles/', le: '+Inf' })).toBe(1);
    expect(moved('guide_http_request_duration_seconds_sum', { method: 'GET', route: '/api/v2/articles/' })).toBeGreaterThan(0);
    // Never the URL: no series names the query string or the unmatched path; scrapes are not counted.
    const routes = new Set(after.filter((s) => s.name === 'guide_http_requests_total').map((s) => s.labels.route));
    expect([...routes].filter((r) => /limit=|no-such-page/.test(r))).toEqual([]);
    expect(routes.has('/metrics')).toBe(false);

    expect(moved('guide_db_query_duration_seconds_count', {})).toBeGreaterThan(0);
    expect(moved('guide_db_slow_queries_total', {})).toBeGreaterThan(0); // SLOW_QUERY_MS=0 here
    for (const state of ['used', 'free']) expect(has(after, 'guide_db_pool_connections', { pool: 'primary', state })).toBe(true);
    expect(has(after, 'guide_db_pool_waiting', { pool: 'primary' })).toBe(true);
    expect(valueOf(after, 'guide_db_pool_max', { pool: 'primary' })).toBeGreaterThanOrEqual(1);
    // No replica configured: no replica figures.
    expect(has(after, 'guide_db_replica_lag_seconds')).toBe(false);
    // The queue's backlog on PostgreSQL only (the embedded database has one connection to spare;
    // on PostgreSQL, a queue's figures appear once it exists: the last test).
    if (t.ctx.dbKind === 'pglite') expect(has(after, 'guide_jobs_queued')).toBe(false);
    expect(valueOf(after, 'guide_uploads_in_flight')).toBe(0);
    expect(has(after, 'guide_image_work_in_flight')).toBe(true);
    // prom-client's own: event-loop delay, heap, RSS.
    expect(valueOf(after, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(valueOf(after, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    expect(has(after, 'nodejs_eventloop_lag_p99_seconds')).toBe(true);
  });

  test("a cache's hits move after two identical requests (the navbar's menus every page carries)", async () => {
    await request(app).get('/events/');
    const before = await scrape();
    await request(app).get('/events/');
    await request(app).get('/events/');
    const after = await scrape();
    const hits = (s: Sample[]) => valueOf(s, 'guide_cache_lookups_total', { cache: 'navbar-menus', result: 'hit' });
    expect(hits(after) - hits(before)).toBe(2);
    expect(has(after, 'guide_cache_lookups_total', { cache: 'navbar-menus', result: 'miss' })).toBe(true);
  });

  test('the page cache counts a hit per answer it serves and a miss per answer its handler made', async () => {
    const cached = express();
    const cache = guestResponseCache({ ttlMs: 60_000 });
    cached.use(cache.beforeSession, cache);
    cached.get('/page/:n/', (req, res) => {
      res.locals.sharedCacheControl = 'public, max-age=10';
      res.send(`<p>page ${req.params.n}</p>`);
    });
    const tally = () => ({ ...(cacheTallies().get('guest-responses') ?? { hits: 0, misses: 0 }) });
    const before = tally();
    for (let i = 0; i < 3; i++) await request(cached).get('/page/1/');
    const after = tally();
    expect({ hits: after.hits - before.hits, misses: after.misses - before.misses }).toEqual({ hits: 2, misses: 1 });
  });

  test('every request has an id: kept when sane, made otherwise, in the answer and every log line of it', async () => {
    lines.length = 0;
    const kept = await request(app).get('/api/v2/articles/?limit=1').set('X-Request-Id', 'nginx-4f2a.9_b');
    expect(kept.headers['x-request-id']).toBe('nginx-4f2a.9_b');
    for (const bad of ['has space', 'x'.repeat(129), '<script>', 'ünï']) {
      const res = await request(app).get('/api/v2/articles/?limit=1').set('X-Request-Id', bad);
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    }
    const made = await request(app).get('/api/v2/articles/?limit=1');
    const id = made.headers['x-request-id'];
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    await until(() => lines.some((l) => l.msg === 'request completed' && l.reqId === id));

    const completed = lines.filter((l) => l.msg === 'request completed');
    expect(completed.find((l) => l.reqId === 'nginx-4f2a.9_b')).toMatchObject({ req: { url: '/api/v2/articles/?limit=1' }, res: { status: 200 } });
    expect(completed.find((l) => l.reqId === id)).toBeDefined();
    expect(JSON.stringify(lines)).not.toMatch(/has space|<script>/);
    // The request's other lines (here its slow queries, SLOW_QUERY_MS=0) carry its id too.
    const slow = lines.filter((l) => l.msg === 'slow query' && l.reqId === id);
    expect(slow.length).toBeGreaterThan(0);
    // With its route's template, its time and SQL; never the values bound to it.
    expect(slow.some((l) => l.route === '/api/v2/articles/')).toBe(true);
    for (const l of slow) {
      expect(l).toMatchObject({ level: 40, ms: expect.any(Number), sql: expect.any(String) });
      expect(l).not.toHaveProperty('bindings');
    }
    expect(lines.filter((l) => l.msg === 'slow query').every((l) => typeof l.reqId === 'string')).toBe(true);
  });

  test("the request's id survives its body being read, its queries and timers", async () => {
    const seen: Line[] = [];
    const log = loggerInto(seen);
    const bare = express();
    bare.use(requestId(), express.json());
    bare.post('/echo/', async (req, res) => {
      log.info('body read');
      await t.ctx.db.raw('select 1');
      await new Promise((resolve) => setTimeout(resolve, 5));
      log.info('after a query and a timer');
      res.json(req.body);
    });
    const res = await request(bare).post('/echo/').set('X-Request-Id', 'post-1').send({ big: 'x'.repeat(90_000) });
    expect(res.status).toBe(200);
    await until(() => seen.length >= 2);
    expect(seen.map((l) => [l.msg, l.reqId])).toEqual([
      ['body read', 'post-1'],
      ['after a query and a timer', 'post-1'],
    ]);
  });

  test('a query faster than SLOW_QUERY_MS is not logged; one outside a request says so', async () => {
    const quiet: Line[] = [];
    const logger = loggerInto(quiet);
    const calm = createApp({ ...t.ctx, logger, config: loadConfig({ NODE_ENV: 'test', DATA_DIR: t.tmpDir, METRICS_TOKEN: TOKEN, SLOW_QUERY_MS: '60000' }) }, { watchManifest: false });
    await request(calm).get('/api/v2/articles/?limit=1');
    await t.ctx.db.raw('select 1');
    expect(quiet.filter((l) => String(l.msg).startsWith('slow query'))).toEqual([]);
    // The options follow the app built last on this database: back to 0 ms, outside a request.
    createApp({ ...t.ctx, logger, config: t.config }, { watchManifest: false });
    await t.ctx.db.raw('select 1');
    await until(() => quiet.some((l) => l.msg === 'slow query (outside a request)'));
    expect(quiet.find((l) => l.msg === 'slow query (outside a request)')).toMatchObject({ route: null, sql: 'select 1' });
    expect(quiet.find((l) => l.msg === 'slow query (outside a request)')).not.toHaveProperty('reqId');
  });

  test('the figures on a port of their own: /metrics and nothing else', async () => {
    const server: Server = await startMetricsServer({ port: 0, host: '127.0.0.1' }, t.ctx.logger);
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const res = await request(url).get('/metrics');
      expect(res.status).toBe(200);
      expect(res.text).toMatch(/^# HELP guide_http_requests_total /m);
      expect((await request(url).get('/')).status).toBe(404);
      expect((await request(url).post('/metrics')).status).toBe(404);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  // Last: the app built here, read as if on PostgreSQL with a replica, stays the one scraped.
  test('read at each scrape: the queue backlog and its oldest due job, the replica lag', async () => {
    await t.ctx.jobs.send('metrics-test-queue', { n: 1 }, { startAfter: new Date(Date.now() - 3_000) });
    await t.ctx.jobs.send('metrics-test-queue', { n: 2 }, { startAfter: new Date(Date.now() + 3_600_000) });
    const status: ReplicaStatus = { state: 'streaming', lagSeconds: 1.5, lagBytes: 4096 };
    const replica = { status: () => status } as Replica;
    app = createApp({ ...t.ctx, logger, dbKind: 'postgres', replica }, { watchManifest: false });
    const figures = await scrape();
    // The job due 3 s ago waits; the one due in an hour is not counted.
    expect(valueOf(figures, 'guide_jobs_queued', { queue: 'metrics-test-queue' })).toBe(1);
    expect(valueOf(figures, 'guide_jobs_oldest_queued_age_seconds', { queue: 'metrics-test-queue' })).toBeGreaterThanOrEqual(2.5);
    expect(valueOf(figures, 'guide_db_replica_lag_seconds')).toBe(1.5);
    expect(valueOf(figures, 'guide_db_replica_lag_bytes')).toBe(4096);
    expect(valueOf(figures, 'guide_db_replica_serving')).toBe(1);
    Object.assign(status, { state: 'down', lagSeconds: null, lagBytes: null });
    const down = await scrape();
    expect(valueOf(down, 'guide_db_replica_serving')).toBe(0);
    expect(valueOf(down, 'guide_db_replica_lag_seconds')).toBeNaN();
  });

  test("deploy/'s dashboard and alert rules name only figures the app exports", async () => {
    const res = await request(app).get('/metrics').set('Authorization', `Bearer ${TOKEN}`);
    const exported = new Set([...res.text.matchAll(/^# TYPE (\S+) (\w+)$/gm)].map((m) => m[1]));
    const named = (file: string) => {
      const text = fs.readFileSync(path.join(ROOT, 'deploy', file), 'utf8');
      return new Set([...text.matchAll(/\b((?:guide|nodejs|process)_[a-z0-9_]+)/g)].map((m) => m[1].replace(/_(bucket|count|sum)$/, '')));
    };
    const dashboard = named('grafana-dashboard.json');
    const alerts = named('prometheus-alerts.yml');
    expect(JSON.parse(fs.readFileSync(path.join(ROOT, 'deploy', 'grafana-dashboard.json'), 'utf8')).panels.length).toBeGreaterThan(10);
    expect([...dashboard, ...alerts].filter((name) => !exported.has(name))).toEqual([]);
    for (const name of ['guide_http_requests_total', 'guide_http_request_duration_seconds', 'guide_db_pool_connections', 'guide_db_query_duration_seconds', 'guide_cache_lookups_total', 'guide_jobs_queued', 'guide_jobs_oldest_queued_age_seconds', 'guide_db_replica_lag_seconds', 'nodejs_eventloop_lag_p99_seconds', 'process_resident_memory_bytes']) {
      expect([name, dashboard.has(name)]).toEqual([name, true]);
    }
    for (const name of ['guide_http_requests_total', 'guide_http_request_duration_seconds', 'guide_db_replica_lag_seconds', 'guide_jobs_oldest_queued_age_seconds']) {
      expect([name, alerts.has(name)]).toEqual([name, true]);
    }
    expect(fs.readFileSync(path.join(ROOT, 'deploy', 'prometheus-alerts.yml'), 'utf8')).toMatch(/node_filesystem_avail_bytes/);
  });

  test('settings: off unless METRICS_PORT or METRICS_TOKEN; loopback; slow queries from 100 ms', () => {
    expect(loadConfig({ NODE_ENV: 'test' })).toMatchObject({ metrics: { port: null, host: '127.0.0.1', token: null }, slowQueryMs: 100 });
    expect(loadConfig({ NODE_ENV: 'test', METRICS_PORT: '9464', METRICS_HOST: '10.0.0.5' }).metrics).toEqual({ port: 9464, host: '10.0.0.5', token: null });
    expect(loadConfig({ NODE_ENV: 'test', METRICS_PORT: '' }).metrics.port).toBeNull();
    expect(() => loadConfig({ NODE_ENV: 'test', METRICS_PORT: '70000' })).toThrow(/METRICS_PORT/);
    expect(() => loadConfig({ NODE_ENV: 'test', METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN: must be at least 16 characters/);
    expect(() => loadConfig({ NODE_ENV: 'test', SLOW_QUERY_MS: '-1' })).toThrow(/SLOW_QUERY_MS/);
  });
});
