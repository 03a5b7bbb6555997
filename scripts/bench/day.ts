// A day in the city, measured (issue 40): the whole deployment — nginx (TLS), Varnish with xkey
// (the edge), two node processes, a PostgreSQL primary and its hot standby, media in an S3
// bucket (s3rver) — under a model of a day's traffic for BENCH_DAY_MINUTES (10):
//
// - readers at BENCH_DAY_RATE (50) requests a second, OPEN loop: each request is sent when it is
//   due, whether or not the earlier ones were answered, and its latency counts from when it was
//   due (a closed loop slows its own arrivals when the server slows, and hides the queue);
//   95% first visits (no cookie: articles, hubs, places, search, by popularity), 4% members
//   saving a place and rating one (signed in through the login API, with CSRF as the islands
//   send it), 1% members reading a page signed in (past the edge);
// - staff publishing a story every 30 s through the newsroom's API (POST stories/, then
//   publish/) and correcting a place every minute: an accessibility decision (staff verify an
//   attribute on one of the most read places, another place each time, through
//   POST /staff/accessibility/decide/, the staff page's form: the places desk of issue 39 does
//   not exist yet, and this is a change staff make to a place today, shown on its page and in
//   its accessibility API answer).
//
// It prints per kind p50, p99 and errors; the edge's hit ratio (varnishstat's cache_hit and
// cache_miss over the run, and the X-Cache of the first visits); staleness after each change:
// from the change's answer until the changed pages, asked through nginx and the edge with no
// cookie every BENCH_DAY_POLL_MS (50), show it (the hub and the home for a story; the place's
// page and its accessibility API for a correction); the replica's lag (the primary's
// pg_stat_replication.replay_lag and the WAL bytes not replayed, every second: max); the RSS of
// each node process (/proc/PID/status, every second). The targets are printed beside them:
// 0 errors, read p99 < 100 ms, staleness p99 < 2 s, edge hit ratio ≥ 90%. The figures go as
// JSON to day.json in the run's directory (BENCH_DAY_OUT, default a new one under the temp dir),
// with the stack's logs.
//
//   npm run build && npm run bench:day
//   BENCH_DAY_MINUTES=1 npm run bench:day
//   BENCH_DAY_DATABASE_URL=postgres://… BENCH_DAY_REPLICA_URL=postgres://… npm run bench:day
//
// Without BENCH_DAY_DATABASE_URL the stack makes a primary + standby pair of its own and seeds
// the demo city on it (as `npm run stack -- --s3 --replica --edge varnish`; a minute or two of
// the start-up); with it, that database is seeded when empty and BENCH_DAY_REPLICA_URL must be
// its streaming replica. Rate limits are off (every reader here comes from 127.0.0.1).
// BENCH_DAY_WARMUP_SECONDS (10) of the readers' and members' traffic run first, not counted. BENCH_STRICT=1 exits
// 1 when a target is missed. Figures on a machine busy with other work say more about the
// neighbours than about the stack: the load average is printed at the start and the end.
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import knexFactory from 'knex';
import pg from 'pg';
import { nginxInstalled, NGINX_PATH, startStackOn, varnishInstalled, type StackOn } from '../stack';
import { DEMO_PASSWORD, STAFF_EMAIL, STAFF_PASSWORD } from '../seed/members';
import { urls } from '../../shared/urls';
import { ACCESSIBILITY_KEYS } from '../../shared/accessibility';
import { CSRF, RETURNING_GUEST, loadAverage, table } from './measure';
import { percentile } from './newsroom-bench';
import { searchWords } from './search-words';

const MINUTES = Number(process.env.BENCH_DAY_MINUTES ?? 10);
const RATE = Number(process.env.BENCH_DAY_RATE ?? 50);
const WARMUP_SECONDS = Number(process.env.BENCH_DAY_WARMUP_SECONDS ?? 10);
const PUBLISH_EVERY_S = Number(process.env.BENCH_DAY_PUBLISH_EVERY ?? 30);
const CORRECT_EVERY_S = Number(process.env.BENCH_DAY_CORRECT_EVERY ?? 60);
const POLL_MS = Number(process.env.BENCH_DAY_POLL_MS ?? 50);
const MEMBERS = Number(process.env.BENCH_DAY_MEMBERS ?? 20);
const TIMEOUT_MS = 10_000;
// Past a page's max-age (60 s) and Varnish's grace (10 s): a change the edge is not told of shows by then.
const GIVE_UP_MS = 90_000;

export const DAY_TARGETS = { errors: 0, readP99Ms: 100, stalenessP99Ms: 2_000, hitRatio: 0.9 } as const;

// The traffic model: shares of the request clock.
const MIX = { firstVisit: 0.95, memberWrite: 0.04, memberRead: 0.01 } as const;
/** What a first visit asks for. */
const FIRST_VISITS = { article: 0.4, place: 0.3, hub: 0.2, search: 0.1 } as const;

type Kind =
  | 'article (first visit)'
  | 'place (first visit)'
  | 'hub (first visit)'
  | 'search (first visit)'
  | 'member: save a place'
  | 'member: rate a place'
  | 'member: page signed in'
  | 'staff: new draft'
  | 'staff: publish'
  | 'staff: correct a place';

const READ_KINDS: Kind[] = ['article (first visit)', 'place (first visit)', 'hub (first visit)', 'search (first visit)', 'member: page signed in'];

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request through the stack (keep-alive, the stack's certificate trusted); the body decoded as text. */
function sender(stack: StackOn) {
  const agent = new https.Agent({ keepAlive: true, maxSockets: 512, ca: stack.ca });
  const send = (method: string, urlPath: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const req = https.request(stack.url + urlPath, { method, headers, agent, ca: stack.ca, timeout: TIMEOUT_MS }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const raw = Buffer.concat(chunks);
          const enc = res.headers['content-encoding'];
          let text = '';
          try {
            text = (enc === 'gzip' ? zlib.gunzipSync(raw) : enc === 'br' ? zlib.brotliDecompressSync(raw) : raw).toString('utf8');
          } catch {
            text = raw.toString('utf8');
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text });
        });
      });
      req.on('timeout', () => req.destroy(new Error(`timeout after ${TIMEOUT_MS} ms`)));
      req.on('error', reject);
      req.end(body);
    });
  return { send, close: () => agent.destroy() };
}

type Send = ReturnType<typeof sender>['send'];

/** A session through the real login API, as the login dialog makes it: the csrftoken cookie and its header. */
async function signIn(send: Send, origin: string, email: string, password: string): Promise<string> {
  const res = await send('POST', '/api/v2/profiles/email-login/', { 'content-type': 'application/json', cookie: RETURNING_GUEST, 'x-csrftoken': CSRF, origin }, JSON.stringify({ email, password }));
  if (res.status !== 200) throw new Error(`signing in ${email}: ${res.status} ${res.body.slice(0, 300)}`);
  const setCookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
  const session = setCookie.map((c) => c.split(';')[0]).filter((c) => !c.startsWith('csrftoken='));
  if (!session.length) throw new Error(`signing in ${email}: no session cookie in the answer`);
  return [RETURNING_GUEST, ...session].join('; ');
}

/** An unsafe call as the islands make it: the session, the csrftoken cookie's value in X-CSRFToken, the site's Origin. */
const apiHeaders = (cookie: string, origin: string) => ({ cookie, 'x-csrftoken': CSRF, origin, 'content-type': 'application/json', 'accept-encoding': 'gzip' });

/** Picks an index in [0, n) with probability falling as 1/(rank+1): a few pages are read by most. */
function zipf(n: number): () => number {
  const cumulative: number[] = [];
  let sum = 0;
  for (let i = 0; i < n; i++) cumulative.push((sum += 1 / (i + 1)));
  return () => {
    const x = Math.random() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

function pickShare<K extends string>(shares: Record<K, number>): K {
  const x = Math.random();
  let acc = 0;
  for (const [k, share] of Object.entries(shares) as Array<[K, number]>) {
    acc += share;
    if (x < acc) return k;
  }
  return Object.keys(shares)[0] as K;
}

interface City {
  articles: string[];
  places: Array<{ id: number; path: string }>;
  hubs: string[];
  searchWords: string[];
  /** The type stories are published in, and its hub. */
  storyType: { id: number; slug: string };
  members: string[];
  /** For the corrections: the most read places in order, each with an attribute staff never verified there. */
  unverified: Array<{ place: { id: number; path: string }; attribute: string }>;
}

async function readCity(databaseUrl: string): Promise<City> {
  const db = knexFactory({ client: 'pg', connection: databaseUrl, pool: { min: 0, max: 1 } });
  try {
    const now = new Date();
    const articles = await db('articles').where('status', 'published').where('date_published', '<=', now).orderBy('date_published', 'desc').limit(2000).pluck('path');
    const places = (await db('listings as l').join('listing_types as t', 't.id', 'l.type_id').orderBy('l.id').limit(2000).select('l.id', 'l.slug', 't.slug as type_slug')) as Array<{ id: number; slug: string; type_slug: string }>;
    const listingTypes = await db('listing_types').orderBy('id').pluck('slug');
    const articleTypes = (await db('article_types as t')
      .join('articles as a', 'a.type_id', 't.id')
      .where('a.status', 'published')
      .groupBy('t.id', 't.slug')
      .orderByRaw('count(*) desc')
      .select('t.id', 't.slug')) as Array<{ id: number; slug: string }>;
    const members = await db('profiles').where({ is_staff: false }).whereNotNull('password_hash').orderBy('id').limit(MEMBERS).pluck('email');
    const words = await searchWords(db, 300);
    if (!articles.length || !places.length || !articleTypes.length || !members.length) throw new Error(`${databaseUrl}: no published articles, places or members: seed it (npm run seed)`);
    // Places in a fixed shuffled order, so the most read are not all the oldest ids of one type.
    const shuffled = [...places].sort((a, b) => ((a.id * 2654435761) % 4093) - ((b.id * 2654435761) % 4093)).map((p) => ({ id: Number(p.id), path: urls.listing(p.type_slug, p.slug, Number(p.id)) }));
    const top = shuffled.slice(0, 40);
    const verified = await db('listing_accessibility').whereIn('listing_id', top.map((p) => p.id)).whereNotNull('verified').select('listing_id', 'attribute');
    const taken = new Set(verified.map((v: { listing_id: number; attribute: string }) => `${v.listing_id}:${v.attribute}`));
    const unverified = top.flatMap((place) => {
      const attribute = ACCESSIBILITY_KEYS.find((a) => !taken.has(`${place.id}:${a}`));
      return attribute ? [{ place, attribute }] : [];
    });
    return {
      articles,
      places: shuffled,
      unverified,
      hubs: ['/', ...articleTypes.map((t) => urls.articleType(t.slug)), ...listingTypes.map((slug: string) => `/${slug}/`)],
      searchWords: words,
      storyType: { id: Number(articleTypes[0].id), slug: articleTypes[0].slug },
      members,
    };
  } finally {
    await db.destroy();
  }
}

/** Until /healthz says the processes read the standby (before their first check, reads go to the primary). */
async function waitForReplica(send: Send): Promise<void> {
  const until = Date.now() + 60_000;
  let streaming = 0;
  while (Date.now() < until) {
    const answer = await send('GET', '/healthz').catch(() => null);
    const state = answer?.status === 200 ? (JSON.parse(answer.body) as { replica?: { state: string } }).replica?.state : undefined;
    streaming = state === 'streaming' ? streaming + 1 : 0;
    if (streaming >= 4) return; // a few in a row: both processes
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the stack never reported its replica streaming (/healthz)');
}

class Recorder {
  readonly samples = new Map<Kind, number[]>();
  readonly errors = new Map<Kind, number>();
  readonly errorExamples: string[] = [];
  /** X-Cache of the first visits: HIT, MISS, PASS; and per kind. */
  readonly cache = new Map<string, number>();
  readonly cacheByKind = new Map<Kind, { hit: number; all: number }>();
  counting = false;

  ok(kind: Kind, ms: number) {
    if (!this.counting) return;
    const xs = this.samples.get(kind) ?? [];
    xs.push(ms);
    this.samples.set(kind, xs);
  }

  failed(kind: Kind, what: string) {
    if (!this.counting) return;
    this.errors.set(kind, (this.errors.get(kind) ?? 0) + 1);
    if (this.errorExamples.length < 20) this.errorExamples.push(`${kind}: ${what}`);
  }

  edge(kind: Kind, xCache: string | undefined) {
    if (!this.counting) return;
    const k = xCache ?? 'none';
    this.cache.set(k, (this.cache.get(k) ?? 0) + 1);
    const byKind = this.cacheByKind.get(kind) ?? { hit: 0, all: 0 };
    byKind.all += 1;
    if (k === 'HIT') byKind.hit += 1;
    this.cacheByKind.set(kind, byKind);
  }
}

/** varnishstat's hit and miss counters (lookups of cacheable requests; passes are not among them). */
async function varnishCounters(stack: StackOn): Promise<{ hit: number; miss: number } | null> {
  if (!stack.edge) return null;
  try {
    const { stdout } = await promisify(execFile)('varnishstat', ['-n', path.join(stack.runDir, 'varnish'), '-1', '-f', 'MAIN.cache_hit', '-f', 'MAIN.cache_miss']);
    const value = (name: string) => Number(new RegExp(`^MAIN\\.${name}\\s+(\\d+)`, 'm').exec(stdout)?.[1] ?? NaN);
    return { hit: value('cache_hit'), miss: value('cache_miss') };
  } catch {
    return null; // varnishstat not installed or the shared memory not readable: X-Cache is counted instead
  }
}

interface Sampled {
  lagMs: number[];
  lagBytes: number[];
  rss: Map<string, number[]>;
  stop(): Promise<void>;
}

const rssMb = (pid: number | undefined): number => {
  try {
    const kb = Number(/^VmRSS:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
    return kb / 1024;
  } catch {
    return NaN;
  }
};

/** Every second: the replica's lag, seen from the primary, and each node process's RSS. */
async function sampleEverySecond(stack: StackOn): Promise<Sampled> {
  const primary = new pg.Client({ connectionString: stack.databaseUrl });
  await primary.connect();
  const out: Sampled = { lagMs: [], lagBytes: [], rss: new Map(stack.processes.map((p) => [p.name, []])), stop: async () => {} };
  let busy = false;
  const tick = async () => {
    if (busy) return;
    busy = true;
    try {
      for (const p of stack.processes) out.rss.get(p.name)!.push(rssMb(p.child.pid));
      if (stack.replicaUrl) {
        // replay_lag: how long the newest WAL the standby replayed took from the primary's commit
        // (null when the standby has caught up and nothing is written); bytes: WAL not yet replayed.
        const { rows } = await primary.query<{ ms: string | null; bytes: string | null }>(
          `select extract(epoch from replay_lag) * 1000 as ms, pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn) as bytes from pg_stat_replication`,
        );
        if (rows.length) {
          out.lagMs.push(Math.max(...rows.map((r) => Number(r.ms ?? 0))));
          out.lagBytes.push(Math.max(...rows.map((r) => Number(r.bytes ?? 0))));
        }
      }
    } catch {
      // a missed sample; the next second tries again
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void tick(), 1000);
  await tick();
  out.stop = async () => {
    clearInterval(timer);
    while (busy) await new Promise((r) => setTimeout(r, 50));
    await primary.end();
  };
  return out;
}

/** Polls the pages (no cookie: through the edge, as a first visit) until each shows the change; ms after `from`, or Infinity. */
async function visibleAfter(send: Send, from: number, checks: Array<{ path: string; shows: (body: string) => boolean }>): Promise<number[]> {
  return Promise.all(
    checks.map(async (c) => {
      for (;;) {
        const res = await send('GET', c.path).catch(() => null);
        const at = performance.now() - from;
        if (res?.status === 200 && c.shows(res.body)) return at;
        if (at > GIVE_UP_MS) return Infinity;
        await new Promise((r) => setTimeout(r, POLL_MS));
      }
    }),
  );
}

/** A word of letters nobody else uses, for a headline to find. */
const uniqueWord = () => `qd${Math.random().toString(36).replace(/[^a-z]/g, '').slice(0, 8)}`;

/** What the place's page shows for an attribute: its status and answer ('verified yes', 'reported no', 'unknown unknown'), or null. */
export function pageAnswer(html: string, attribute: string): string | null {
  const at = html.indexOf(`data-attribute="${attribute}"`);
  if (at < 0) return null;
  const row = html.slice(at, html.indexOf('</div>', at));
  const status = /data-status="(\w+)"/.exec(row)?.[1];
  const value = /a11y-value--(\w+)/.exec(row)?.[1];
  return status && value ? `${status} ${value}` : null;
}

export interface DayResult {
  minutes: number;
  rate: number;
  cores: number;
  loadAverage: { start: string; end: string };
  where: string[];
  /** edgeHitRatio: the share of X-Cache: HIT among the kind's answers (first visits only). */
  kinds: Array<{ kind: Kind; count: number; p50: number; p99: number; errors: number; edgeHitRatio: number | null }>;
  errorExamples: string[];
  edge: { varnishHits: number | null; varnishMisses: number | null; hitRatio: number | null; firstVisitXCache: Record<string, number> };
  staleness: { publishes: Array<{ story: string; hubMs: number; homeMs: number }>; corrections: Array<{ place: string; decision: string; pageMs: number; apiMs: number }>; p99Ms: number; maxMs: number };
  replica: { maxLagMs: number | null; maxLagBytes: number | null };
  rss: Array<{ process: string; startMb: number; maxMb: number; endMb: number }>;
  targets: typeof DAY_TARGETS;
  pass: { errors: boolean; readP99: boolean; staleness: boolean; hitRatio: boolean };
}

export async function benchDay(log: (line: string) => void = console.log): Promise<{ result: DayResult; outDir: string }> {
  if (!nginxInstalled()) throw new Error(`nginx is not installed at ${NGINX_PATH} (apt-get install -y nginx)`);
  if (!varnishInstalled()) throw new Error('Varnish with xkey is not installed: apt-get install -y varnish varnish-modules');
  const outDir = process.env.BENCH_DAY_OUT ?? fs.mkdtempSync(path.join(os.tmpdir(), 'guide-bench-day-'));
  fs.mkdirSync(outDir, { recursive: true });
  const databaseUrl = process.env.BENCH_DAY_DATABASE_URL;
  const replicaUrl = process.env.BENCH_DAY_REPLICA_URL;
  if (databaseUrl && !replicaUrl) throw new Error('BENCH_DAY_DATABASE_URL needs BENCH_DAY_REPLICA_URL, its streaming replica (or set neither: a pair of its own)');

  log(`starting the stack: nginx, Varnish, 2 node processes, PostgreSQL primary + standby, S3 (s3rver)${databaseUrl ? '' : '; the pair is made and seeded first'}`);
  const stack = await startStackOn({ edge: 'varnish', s3: true, replica: true, seed: true, databaseUrl, replicaUrl, env: { RATE_LIMITS: 'false' }, log });
  const { send, close } = sender(stack);
  const origin = stack.url;
  try {
    for (const line of stack.where) log(`  ${line}`);
    await waitForReplica(send);
    const city = await readCity(stack.databaseUrl);
    log(`the city: ${city.articles.length} articles, ${city.places.length} places, ${city.hubs.length} hubs, ${city.searchWords.length} search words; stories go to /${city.storyType.slug}/`);

    const members = await Promise.all(city.members.map((email) => signIn(send, origin, email, DEMO_PASSWORD)));
    const staff = await signIn(send, origin, STAFF_EMAIL, STAFF_PASSWORD);
    log(`${members.length} members and the staff editor signed in through the login API`);

    const rec = new Recorder();
    const pickArticle = zipf(city.articles.length);
    const pickPlace = zipf(city.places.length);
    const pickHub = zipf(city.hubs.length);
    const pickWord = zipf(city.searchWords.length);
    const readPath = (what: keyof typeof FIRST_VISITS): string => {
      if (what === 'article') return city.articles[pickArticle()];
      if (what === 'place') return city.places[pickPlace()].path;
      if (what === 'hub') return city.hubs[pickHub()];
      return `/search?q=${encodeURIComponent(city.searchWords[pickWord()])}`;
    };
    const timed = async (kind: Kind, due: number, call: () => Promise<Answer>, ok: (a: Answer) => boolean, onAnswer?: (a: Answer) => void) => {
      try {
        const a = await call();
        if (ok(a)) rec.ok(kind, performance.now() - due);
        else rec.failed(kind, `${a.status} ${a.body.slice(0, 120).replace(/\s+/g, ' ')}`);
        onAnswer?.(a);
      } catch (err) {
        rec.failed(kind, (err as Error).message);
      }
    };

    // One request of the model, due at `due`.
    const ratingIds = new Map<string, number>(); // member cookie + listing → rating id, for PATCH
    const oneRequest = (due: number): Promise<void> => {
      const who = pickShare(MIX);
      if (who === 'firstVisit') {
        const what = pickShare(FIRST_VISITS);
        const p = readPath(what);
        const kind = `${what} (first visit)` as Kind;
        return timed(kind, due, () => send('GET', p, { 'accept-encoding': 'gzip, br' }), (a) => a.status === 200, (a) => rec.edge(kind, a.headers['x-cache'] as string | undefined));
      }
      const cookie = members[Math.floor(Math.random() * members.length)];
      if (who === 'memberRead') {
        const p = readPath(Math.random() < 0.5 ? 'article' : 'place');
        return timed('member: page signed in', due, () => send('GET', p, { cookie, 'accept-encoding': 'gzip, br' }), (a) => a.status === 200);
      }
      const place = city.places[pickPlace()];
      if (Math.random() < 0.5) {
        // Save, as the heart button does: POST, and on a second press DELETE.
        return timed(
          'member: save a place',
          due,
          async () => {
            const saved = await send('POST', '/api/v2/favourites/', apiHeaders(cookie, origin), JSON.stringify({ listing: place.id }));
            if (saved.status === 200) return send('DELETE', `/api/v2/favourites/${(JSON.parse(saved.body) as { id: number }).id}/`, apiHeaders(cookie, origin));
            return saved;
          },
          (a) => a.status === 201 || a.status === 204,
        );
      }
      // Rate, as the stars do: POST the first time, PATCH the member's rating after.
      const key = `${cookie}|${place.id}`;
      const rating = 1 + Math.floor(Math.random() * 5);
      const known = ratingIds.get(key);
      return timed(
        'member: rate a place',
        due,
        () =>
          known
            ? send('PATCH', `/api/v2/ratings/${known}/`, apiHeaders(cookie, origin), JSON.stringify({ rating }))
            : send('POST', '/api/v2/ratings/', apiHeaders(cookie, origin), JSON.stringify({ listing: place.id, rating })),
        (a) => a.status === 200 || a.status === 201,
        (a) => {
          if (!known && (a.status === 200 || a.status === 201)) ratingIds.set(key, (JSON.parse(a.body) as { id: number }).id);
        },
      );
    };

    // Staff: a story every PUBLISH_EVERY_S, a place corrected every CORRECT_EVERY_S.
    const publishes: DayResult['staleness']['publishes'] = [];
    const corrections: DayResult['staleness']['corrections'] = [];
    const staffJson = (cookie: string) => apiHeaders(cookie, origin);
    const publishStory = async () => {
      const word = uniqueWord();
      const headline = `Harbourfront ferry ${word} keeps a new timetable`;
      let draftId: number | null = null;
      const t0 = performance.now();
      await timed(
        'staff: new draft',
        t0,
        () =>
          send(
            'POST',
            '/api/v2/staff/stories/',
            staffJson(staff),
            JSON.stringify({
              fields: {
                name: headline,
                type_id: city.storyType.id,
                excerpt: 'The island ferries keep a new timetable from Monday.',
                doc: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: `The island ferries (${word}) keep a new timetable from Monday.` }] }] },
              },
            }),
          ),
        (a) => a.status === 201,
        (a) => {
          if (a.status === 201) draftId = (JSON.parse(a.body) as { id: number }).id;
        },
      );
      if (draftId === null) return;
      const t1 = performance.now();
      let storyPath = '';
      await timed('staff: publish', t1, () => send('POST', `/api/v2/staff/stories/${draftId}/publish/`, staffJson(staff), '{}'), (a) => a.status === 200, (a) => {
        if (a.status === 200) storyPath = (JSON.parse(a.body) as { path: string }).path;
      });
      if (!storyPath) return;
      const answered = performance.now();
      const [hubMs, homeMs] = await visibleAfter(send, answered, [
        { path: urls.articleType(city.storyType.slug), shows: (b) => b.includes(word) },
        { path: '/', shows: (b) => b.includes(word) },
      ]);
      if (rec.counting) publishes.push({ story: storyPath, hubMs, homeMs });
      log(`  published ${storyPath}: on its hub after ${fmtMs(hubMs)}, on the home after ${fmtMs(homeMs)}`);
    };
    // Each correction verifies an attribute staff never verified on one of the most read places
    // (the edge keeps their pages), the next place each time: no copy of the page kept from
    // before can show it, so the first answer that does is fresh.
    let correctionsMade = 0;
    const decision = 'yes';
    const correctPlace = async () => {
      const pair = city.unverified[correctionsMade++]; // 40: enough for a 40-minute day
      if (!pair) return;
      const { place: corrected, attribute } = pair;
      // The page as a reader got it just before: the edge keeps it (a popular place's usually is).
      await send('GET', corrected.path).catch(() => null);
      const form = new URLSearchParams({ csrfmiddlewaretoken: CSRF, listing: String(corrected.id), attribute, decision, note: 'Checked by phone (bench:day)' }).toString();
      const t0 = performance.now();
      let done = false;
      await timed(
        'staff: correct a place',
        t0,
        () => send('POST', '/staff/accessibility/decide/', { cookie: staff, origin, 'content-type': 'application/x-www-form-urlencoded' }, form),
        (a) => a.status === 303,
        (a) => (done = a.status === 303),
      );
      if (!done) return;
      const answered = performance.now();
      const [pageMs, apiMs] = await visibleAfter(send, answered, [
        { path: corrected.path, shows: (b) => pageAnswer(b, attribute) === `verified ${decision}` },
        {
          path: `/api/v2/listings/${corrected.id}/accessibility/`,
          shows: (b) => (JSON.parse(b) as { attributes: Array<{ attribute: string; status: string; value: string }> }).attributes.some((a) => a.attribute === attribute && a.status === 'verified' && a.value === decision),
        },
      ]);
      if (rec.counting) corrections.push({ place: corrected.path, decision, pageMs, apiMs });
      log(`  corrected ${corrected.path} (${attribute}: verified ${decision}): on its page after ${fmtMs(pageMs)}, in its API after ${fmtMs(apiMs)}`);
    };
    /** Runs the model for `seconds`: the request clock and (with `staffToo`) the staff timers; resolves when every answer is in. */
    const run = async (seconds: number, staffToo: boolean) => {
      const inFlight = new Set<Promise<void>>();
      const track = (p: Promise<void>) => {
        inFlight.add(p);
        void p.finally(() => inFlight.delete(p));
      };
      const start = performance.now();
      const end = start + seconds * 1000;
      let nextPublish = start + Math.min(5_000, (seconds * 1000) / 2);
      let nextCorrect = start + Math.min(15_000, (seconds * 1000) / 2);
      const interval = 1000 / RATE;
      for (let i = 0; ; i++) {
        const due = start + i * interval;
        if (due >= end) break;
        const wait = due - performance.now();
        if (wait > 1) await new Promise((r) => setTimeout(r, Math.floor(wait)));
        track(oneRequest(due));
        if (staffToo && due >= nextPublish) {
          track(publishStory());
          nextPublish += PUBLISH_EVERY_S * 1000;
        }
        if (staffToo && due >= nextCorrect) {
          track(correctPlace());
          nextCorrect += CORRECT_EVERY_S * 1000;
        }
      }
      while (inFlight.size) await Promise.all([...inFlight]);
    };

    if (WARMUP_SECONDS > 0) {
      log(`warm-up: ${WARMUP_SECONDS} s of the readers' and members' traffic, not counted`);
      await run(WARMUP_SECONDS, false);
    }
    const loadStart = loadAverage();
    const sampler = await sampleEverySecond(stack);
    const before = await varnishCounters(stack);
    rec.counting = true;
    log(`the day: ${MINUTES} min at ${RATE} req/s (open loop), a story every ${PUBLISH_EVERY_S} s, a place corrected every ${CORRECT_EVERY_S} s; load average ${loadStart} on ${os.cpus().length} cores`);
    await run(MINUTES * 60, true);
    rec.counting = false;
    const after = await varnishCounters(stack);
    await sampler.stop();
    const loadEnd = loadAverage();

    const kinds = ([...READ_KINDS, 'member: save a place', 'member: rate a place', 'staff: new draft', 'staff: publish', 'staff: correct a place'] as Kind[]).map((kind) => {
      const xs = rec.samples.get(kind) ?? [];
      const edge = rec.cacheByKind.get(kind);
      return { kind, count: xs.length + (rec.errors.get(kind) ?? 0), p50: percentile(xs, 50), p99: percentile(xs, 99), errors: rec.errors.get(kind) ?? 0, edgeHitRatio: edge ? edge.hit / edge.all : null };
    });
    const hits = before && after ? after.hit - before.hit : null;
    const misses = before && after ? after.miss - before.miss : null;
    const xHit = rec.cache.get('HIT') ?? 0;
    const xMiss = rec.cache.get('MISS') ?? 0;
    const hitRatio = hits !== null && misses !== null && hits + misses > 0 ? hits / (hits + misses) : xHit + xMiss > 0 ? xHit / (xHit + xMiss) : null;
    const stale = [...publishes.flatMap((p) => [p.hubMs, p.homeMs]), ...corrections.flatMap((c) => [c.pageMs, c.apiMs])];
    const seriesMax = (xs: number[]) => (xs.length ? Math.max(...xs.filter((x) => Number.isFinite(x))) : null);
    const result: DayResult = {
      minutes: MINUTES,
      rate: RATE,
      cores: os.cpus().length,
      loadAverage: { start: loadStart, end: loadEnd },
      where: stack.where,
      kinds,
      errorExamples: rec.errorExamples,
      edge: { varnishHits: hits, varnishMisses: misses, hitRatio, firstVisitXCache: Object.fromEntries(rec.cache) },
      staleness: { publishes, corrections, p99Ms: percentile(stale, 99), maxMs: stale.length ? Math.max(...stale) : NaN },
      replica: { maxLagMs: seriesMax(sampler.lagMs), maxLagBytes: seriesMax(sampler.lagBytes) },
      rss: stack.processes.map((p) => {
        const xs = sampler.rss.get(p.name)!.filter((x) => Number.isFinite(x));
        return { process: `${p.name} (pid ${p.child.pid})`, startMb: xs[0] ?? NaN, maxMb: xs.length ? Math.max(...xs) : NaN, endMb: xs[xs.length - 1] ?? NaN };
      }),
      targets: DAY_TARGETS,
      pass: { errors: false, readP99: false, staleness: false, hitRatio: false },
    };
    const reads = kinds.filter((k) => READ_KINDS.includes(k.kind));
    result.pass = {
      errors: kinds.every((k) => k.errors === 0),
      readP99: reads.every((k) => k.count === 0 || k.p99 < DAY_TARGETS.readP99Ms),
      staleness: stale.length > 0 && result.staleness.p99Ms < DAY_TARGETS.stalenessP99Ms,
      hitRatio: hitRatio !== null && hitRatio >= DAY_TARGETS.hitRatio,
    };
    fs.writeFileSync(path.join(outDir, 'day.json'), `${JSON.stringify(result, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? null : v), 2)}\n`);
    fs.writeFileSync(path.join(outDir, 'stack.log'), stack.logs());
    return { result, outDir };
  } finally {
    close();
    await stack.stop();
  }
}

const fmtMs = (ms: number) => (Number.isFinite(ms) ? `${ms.toFixed(0)} ms` : `> ${GIVE_UP_MS / 1000} s`);
const mark = (ok: boolean) => (ok ? 'pass' : 'FAIL');

export function printDay(r: DayResult, log: (line: string) => void = console.log): void {
  const readRow = (k: DayResult['kinds'][number]) => READ_KINDS.includes(k.kind);
  log(
    `\n${table(
      ['kind', 'requests', 'edge hits', 'p50 ms', 'p99 ms', 'errors', 'target'],
      r.kinds.map((k) => [
        k.kind,
        String(k.count),
        k.edgeHitRatio === null ? '' : `${(k.edgeHitRatio * 100).toFixed(1)}%`,
        Number.isFinite(k.p50) ? k.p50.toFixed(1) : '–',
        Number.isFinite(k.p99) ? k.p99.toFixed(1) : '–',
        String(k.errors),
        readRow(k) ? `p99 < ${DAY_TARGETS.readP99Ms} ms, 0 errors: ${mark(k.errors === 0 && (k.count === 0 || k.p99 < DAY_TARGETS.readP99Ms))}` : `0 errors: ${mark(k.errors === 0)}`,
      ]),
    )}\n`,
  );
  if (r.errorExamples.length) log(`errors (first ${r.errorExamples.length}):\n${r.errorExamples.map((e) => `  ${e}`).join('\n')}\n`);
  const x = r.edge.firstVisitXCache;
  const xTotal = Object.values(x).reduce((a, b) => a + b, 0);
  log(
    `edge hit ratio: ${r.edge.hitRatio === null ? 'n/a' : `${(r.edge.hitRatio * 100).toFixed(1)}%`}` +
      (r.edge.varnishHits !== null ? ` (varnishstat: ${r.edge.varnishHits} hits, ${r.edge.varnishMisses} misses)` : ' (X-Cache of first visits)') +
      `; first visits' X-Cache: ${Object.entries(x).map(([k, n]) => `${k} ${((n / Math.max(1, xTotal)) * 100).toFixed(1)}%`).join(', ')}` +
      `  (target ≥ ${DAY_TARGETS.hitRatio * 100}%: ${mark(r.pass.hitRatio)})`,
  );
  const s = r.staleness;
  log(
    `staleness after a change: ${s.publishes.length} stories (hub and home), ${s.corrections.length} place corrections (page and API); ` +
      `p99 ${fmtMs(s.p99Ms)}, max ${fmtMs(s.maxMs)}  (target p99 < ${DAY_TARGETS.stalenessP99Ms / 1000} s: ${mark(r.pass.staleness)})`,
  );
  log(`replica lag (max, sampled every second): ${r.replica.maxLagMs === null ? 'n/a' : `${r.replica.maxLagMs.toFixed(0)} ms`}, ${r.replica.maxLagBytes === null ? 'n/a' : `${r.replica.maxLagBytes} bytes of WAL`}`);
  log(`RSS: ${r.rss.map((p) => `${p.process} ${p.startMb.toFixed(0)} → max ${p.maxMb.toFixed(0)}, end ${p.endMb.toFixed(0)} MB`).join('; ')}`);
  log(`errors: ${r.kinds.reduce((a, k) => a + k.errors, 0)}  (target 0: ${mark(r.pass.errors)}); read p99 < ${DAY_TARGETS.readP99Ms} ms: ${mark(r.pass.readP99)}`);
  log(`load average ${r.loadAverage.start} → ${r.loadAverage.end} on ${r.cores} cores`);
}

async function main(): Promise<void> {
  const { result, outDir } = await benchDay();
  printDay(result);
  console.log(`\nfigures as JSON: ${path.join(outDir, 'day.json')} (the stack's logs beside it: stack.log)`);
  if (process.env.BENCH_STRICT === '1' && !Object.values(result.pass).every(Boolean)) process.exitCode = 1;
}

if (require.main === module) {
  main().catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
