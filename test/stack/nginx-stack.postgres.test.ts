import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { DbHandle } from '../../server/db';
import { openDatabase } from '../../server/db';
import { openTestDatabase, testDatabaseUrl, withDatabase } from '../../server/testing/test-db';
import { websocketUpgradeStatus } from '../../server/testing/upgrade-status';
import { LIVE_EDITING } from '../../shared/newsroom';
import { NGINX_PATH, nginxInstalled, startStack, type Stack } from '../../scripts/stack';

// The deployment as ops run it (scripts/stack.ts): nginx from deploy/nginx.conf.template in
// front of two production processes (`npm run build` output) on a fresh PostgreSQL database.
// What only the whole stack can show: a member's session and the rate limits hold across the
// processes, nginx sets X-Forwarded-* itself, it serves static files, and guests' and members'
// pages from its own cache, and a process killed under load costs no request beyond those it had in flight.
// Without nginx installed, the suite says so in a skipped test's name (never a silent pass).

jest.setTimeout(240_000);

const STATIC_DIST = path.resolve(__dirname, '..', '..', 'static', 'dist', 'assets');

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function describeWithNginx(name: string, fn: () => void): void {
  if (nginxInstalled()) return describe(name, fn);
  describe(name, () => {
    test.skip(`SKIPPED: nginx is not installed at ${NGINX_PATH} (apt-get install -y nginx)`, () => {});
  });
  console.warn(`nginx stack tests SKIPPED: nginx is not installed at ${NGINX_PATH}. Install it with: apt-get install -y nginx`);
}

describeWithNginx('nginx in front of two node processes on PostgreSQL', () => {
  let pgDatabase: DbHandle | undefined;
  let stack: Stack;
  let agent: https.Agent;
  let member: { cookie: string; csrfToken: string; email: string };
  let databaseUrl: string;
  /** Every POST to reset-password this file sent: the address limit counts them all. */
  let resetRequests = 0;

  function request(pathname: string, opts: { method?: string; headers?: Record<string, string>; body?: unknown; agent?: https.Agent } = {}): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const body = opts.body === undefined ? undefined : JSON.stringify(opts.body);
      const headers: Record<string, string> = { ...(body ? { 'Content-Type': 'application/json', Origin: stack.url } : {}), ...opts.headers };
      const req = https.request(stack.url + pathname, { method: opts.method ?? 'GET', headers, ca: stack.ca, agent: opts.agent ?? agent }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  const newToken = () => crypto.randomBytes(32).toString('base64url');
  const spoofedAddress = () => `203.0.113.${crypto.randomInt(1, 255)}`;
  const cookiesOf = (a: Answer) => ((a.headers['set-cookie'] as string[] | undefined) ?? []).map((c) => c.split(';')[0]);

  beforeAll(async () => {
    pgDatabase = await openTestDatabase();
    const name = (await pgDatabase.db.raw('select current_database() as name')).rows[0].name as string;
    await pgDatabase.db.destroy(); // the stack's processes are the database's only clients
    databaseUrl = withDatabase(testDatabaseUrl()!, name);
    stack = await startStack({ databaseUrl, env: { RATE_LIMITS: 'true' } });
    agent = new https.Agent({ ca: stack.ca, keepAlive: true, maxSockets: 16 });

    // A member signs up through nginx. The client claims plain HTTP from another host: nginx
    // replaces both claims, so the app sees HTTPS and sets its Secure session cookie.
    const csrfToken = newToken();
    const email = `stack-${crypto.randomBytes(4).toString('hex')}@example.com`;
    const signUp = await request('/api/v2/profiles/email-registration/', {
      method: 'POST',
      headers: { Cookie: `csrftoken=${csrfToken}`, 'X-CSRFToken': csrfToken, 'X-Forwarded-Proto': 'http', 'X-Forwarded-Host': 'evil.example', 'X-Forwarded-For': spoofedAddress() },
      body: { email, password: 'correct horse battery staple' },
    });
    expect(signUp.status).toBe(201);
    const session = (signUp.headers['set-cookie'] as string[]).find((c) => c.startsWith('sessionid='));
    expect(session).toMatch(/; Secure/i);
    member = { cookie: `csrftoken=${csrfToken}; ${session!.split(';')[0]}`, csrfToken, email };
  });

  afterAll(async () => {
    agent?.destroy();
    await stack?.stop();
    await pgDatabase?.close();
  });

  test('nginx serves static files and the hashed bundles itself, with immutable caching for the bundles', async () => {
    const css = await request('/static/css/dashboard.css');
    expect(css.status).toBe(200);
    expect(css.headers['x-instance']).toBeUndefined(); // no node process saw it
    expect(css.headers['cache-control']).toBe('public, max-age=3600');

    const bundle = fs.readdirSync(STATIC_DIST).find((f) => /-[A-Za-z0-9_-]{8}\.js$/.test(f));
    expect(bundle).toBeDefined();
    const js = await request(`/static/dist/assets/${bundle}`);
    expect(js.status).toBe(200);
    expect(js.headers['x-instance']).toBeUndefined();
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(js.headers['content-type']).toMatch(/javascript/);

    expect((await request('/static/dist/assets/missing-00000000.js')).status).toBe(404);
  });

  test('plain HTTP is redirected to the HTTPS site', async () => {
    const answer = await new Promise<http.IncomingMessage>((resolve, reject) => {
      http.get(`http://127.0.0.1:${stack.httpPort}/restaurants/?page=2`, { agent: false }, resolve).on('error', reject);
    });
    answer.resume();
    expect(answer.statusCode).toBe(301);
    expect(answer.headers.location).toBe(`${stack.url}/restaurants/?page=2`);
  });

  test("each request has nginx's id (a client's is replaced), in the answer and nginx's log; /metrics is not the public's", async () => {
    const url = '/api/v2/neighbourhoods/?limit=3';
    const first = await request(url, { headers: { 'X-Request-Id': 'chosen-by-the-client' } });
    const again = await request(url);
    const ids = [first, again].map((a) => a.headers['x-request-id']);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}$/); // nginx's $request_id
    // A cached answer carries its own request's id, not the one of the request that filled it.
    expect(again.headers['x-cache']).toBe('HIT');
    expect(ids[1]).not.toBe(ids[0]);
    const accessLog = path.join(stack.runDir, 'access.log');
    for (let i = 0; i < 100 && !(fs.existsSync(accessLog) && fs.readFileSync(accessLog, 'utf8').includes(`id=${ids[1]}`)); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(fs.readFileSync(accessLog, 'utf8')).toContain(`cache=MISS id=${ids[0]}`);
    expect((await request('/metrics')).status).toBe(404);
  });

  test('read-API answers are cached by nginx as by the app: first visits and returning guests share it, members never', async () => {
    const url = '/api/v2/articles/?limit=7';
    // A first visit (no cookie) gets no cookie and a shared answer, so nginx keeps it (issue 24:
    // the app sets its csrftoken only where a token is used).
    const first = await request(url);
    expect(first.status).toBe(200);
    expect(first.headers['x-cache']).toBe('MISS');
    expect(first.headers['set-cookie']).toBeUndefined();
    expect(first.headers['cache-control']).toMatch(/^public/);
    const again = await request(url);
    expect(again.headers['x-cache']).toBe('HIT');
    expect(again.headers['set-cookie']).toBeUndefined();
    expect(again.body).toBe(first.body);
    // A returning guest reads the same entry, unpacked by nginx for a client that takes no gzip.
    const guest = { Cookie: `csrftoken=${newToken()}` };
    const other = { ...guest, 'Accept-Encoding': 'identity' };
    const hit = await request(url, { headers: other });
    expect(hit.headers['x-cache']).toBe('HIT');
    expect(hit.headers['set-cookie']).toBeUndefined();
    expect(hit.body).toBe(first.body);

    // A first visitor about to post asks for a token (the islands' client does, GET
    // /api/v2/csrf/): each gets their own, never from the cache, and the app accepts it.
    const tokens: string[] = [];
    for (let i = 0; i < 2; i++) {
      const answer = await request('/api/v2/csrf/');
      expect(answer.status).toBe(200);
      expect(answer.headers['x-cache']).not.toBe('HIT');
      const set = cookiesOf(answer).find((c) => c.startsWith('csrftoken='));
      expect(set).toBeDefined();
      tokens.push(set!.split(';')[0].slice('csrftoken='.length));
    }
    expect(new Set(tokens).size).toBe(2);
    resetRequests += 1;
    const withToken = await request('/api/v2/profiles/reset-password/', { method: 'POST', headers: { Cookie: `csrftoken=${tokens[0]}`, 'X-CSRFToken': tokens[0] }, body: { email: 'nobody@example.com' } });
    expect(withToken.status).toBe(200);

    // A member's read-API answer carries their own ratings: never the guests' entry filled
    // above, and never stored (the app sends a member's `private`).
    for (let i = 0; i < 2; i++) {
      const answer = await request(url, { headers: { Cookie: member.cookie } });
      expect(answer.status).toBe(200);
      expect(answer.headers['x-cache']).toBe('MISS');
      expect(answer.headers['cache-control']).toMatch(/^private/);
    }
    const me = await request('/api/v2/profiles/me/', { headers: { Cookie: member.cookie } });
    expect(me.status).toBe(200);
    expect(me.headers['x-cache']).not.toBe('HIT');
    // Any cookie the app does not know goes past the cache every time, even with the known ones,
    // and so does a name that merely ends in a known one.
    for (const cookie of [`${guest.Cookie}; age_verified=1`, `${member.cookie}; age_verified=1`, `${guest.Cookie}; xsessionid=1`]) {
      const answer = await request(url, { headers: { Cookie: cookie } });
      expect(answer.status).toBe(200);
      expect(answer.headers['x-cache']).toBe('BYPASS');
    }
    // A returning guest's answer that is not shared (no-store) is not kept either.
    const notShared = { Cookie: `csrftoken=${newToken()}` };
    await request('/healthz', { headers: notShared });
    expect((await request('/healthz', { headers: notShared })).headers['x-cache']).toBe('MISS');
  });

  /**
   * Asks until nginx answers from its cache. A member's answer that went through the session
   * middleware renews their cookies, so it is `private` and not stored: nginx stores the first
   * the app serves from its own cache before the session (after each process has filled its
   * entry and renewed that session once), so a few requests on two processes.
   */
  async function untilHit(pathname: string, cookie: string): Promise<{ miss: Answer; hit: Answer }> {
    const miss = await request(pathname, { headers: { Cookie: cookie } });
    expect(miss.status).toBe(200);
    expect(miss.headers['x-cache']).toBe('MISS');
    const seen: string[] = [];
    for (let i = 0; i < 6; i++) {
      const answer = await request(pathname, { headers: { Cookie: cookie } });
      expect(answer.status).toBe(200);
      if (answer.headers['x-cache'] === 'HIT') return { miss, hit: answer };
      seen.push(`${answer.headers['x-cache']} ${answer.headers['cache-control']} ${cookiesOf(answer).map((c) => c.split('=')[0]).join(',')}`);
    }
    throw new Error(`${pathname} was never served from nginx's cache with ${cookie}: ${seen.join('; ')}`);
  }

  test('content pages are cached by nginx for members too, and the age gate answer is part of the key', async () => {
    const page = '/?stack-members=1';
    const memberCookie = `${member.cookie}; signed_in=1`;
    const { miss, hit } = await untilHit(page, memberCookie);
    // Stored from an answer the app sent this member as the same for everybody, with no cookie.
    expect(hit.headers['cache-control']).toBe('public, max-age=60');
    expect(hit.headers['set-cookie']).toBeUndefined();
    expect(hit.body).toBe(miss.body);
    // Cookie order and spaces change nothing: another member's request, cookies reordered, hits.
    const reordered = await request(page, { headers: { Cookie: `signed_in=1;${member.cookie.split('; ').reverse().join(' ;  ')}` } });
    expect(reordered.headers['x-cache']).toBe('HIT');
    // Served by nginx, the member's session is untouched: an API call still knows them.
    const me = await request('/api/v2/profiles/me/', { headers: { Cookie: memberCookie } });
    expect(me.status).toBe(200);
    expect(JSON.parse(me.body).email).toBe(member.email);

    // The age gate's answer: each value its own entry, for guests as for members.
    const guestCookie = `csrftoken=${newToken()}`;
    const guests = await untilHit(page, guestCookie);
    // A first visit (no cookie) reads the guests' entry: the page as shareable as theirs.
    const firstVisit = await request(page);
    expect([firstVisit.headers['x-cache'], firstVisit.headers['set-cookie'], firstVisit.headers['cache-control']]).toEqual(['HIT', undefined, 'public, max-age=60']);
    expect(firstVisit.body).toBe(guests.hit.body);
    const over = await untilHit(page, `${guestCookie}; is_user_over_18=true`);
    const under = await untilHit(page, `is_user_over_18=false; ${guestCookie}`);
    expect(over.miss.headers['x-cache']).toBe('MISS');
    expect(under.miss.headers['x-cache']).toBe('MISS');
    const overAgain = await request(page, { headers: { Cookie: ` is_user_over_18=true ; csrftoken=${newToken()}` } });
    expect(overAgain.headers['x-cache']).toBe('HIT');
    // The same cookie twice (which value would the app read?) and an unknown cookie go past it.
    for (const cookie of [`${guestCookie}; is_user_over_18=true; is_user_over_18=false`, `${memberCookie}; tracker=1`]) {
      const answer = await request(page, { headers: { Cookie: cookie } });
      expect(answer.status).toBe(200);
      expect(answer.headers['x-cache']).toBe('BYPASS');
    }
  });

  /** A GET whose body is kept as bytes (a compressed answer). */
  function requestBytes(pathname: string, headers: Record<string, string>): Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }> {
    return new Promise((resolve, reject) => {
      https
        .get(stack.url + pathname, { headers, ca: stack.ca, agent }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
          res.on('error', reject);
        })
        .on('error', reject);
    });
  }

  test('a client that takes Brotli is served br from an entry of its own, any other gzip or plain text', async () => {
    const page = '/?stack-encodings=1';
    const plain = await request(page); // no Accept-Encoding: gzip asked of the app, unpacked by nginx
    expect(plain.status).toBe(200);
    const asked = async (acceptEncoding: string) => {
      const first = await requestBytes(page, { 'Accept-Encoding': acceptEncoding });
      const again = await requestBytes(page, { 'Accept-Encoding': acceptEncoding });
      return { first, again };
    };
    const br = await asked('gzip, deflate, br');
    expect([br.first.headers['content-encoding'], br.again.headers['content-encoding'], br.again.headers['x-cache']]).toEqual(['br', 'br', 'HIT']);
    expect(brotliDecompressSync(br.again.body).toString()).toBe(plain.body);
    // A gzip-only client never gets the br entry, and reads the gzip one the plain request filled.
    const gz = await asked('gzip');
    expect([gz.first.headers['content-encoding'], gz.first.headers['x-cache']]).toEqual(['gzip', 'HIT']);
    expect(gunzipSync(gz.first.body).toString()).toBe(plain.body);
    // br refused by weight: gzip.
    const refused = await requestBytes(page, { 'Accept-Encoding': 'gzip, br;q=0' });
    expect(refused.headers['content-encoding']).toBe('gzip');
  });

  test('a member signed in through one process is signed in on the other', async () => {
    const login = await request('/api/v2/profiles/email-login/', {
      method: 'POST',
      headers: { Cookie: `csrftoken=${member.csrfToken}`, 'X-CSRFToken': member.csrfToken },
      body: { email: member.email, password: 'correct horse battery staple' },
    });
    expect(login.status).toBe(200);
    const loginInstance = login.headers['x-instance'];
    expect(['node-1', 'node-2']).toContain(loginInstance);
    const session = cookiesOf(login).find((c) => c.startsWith('sessionid='));
    expect(session).toBeDefined();
    const cookie = `csrftoken=${member.csrfToken}; ${session}`;

    // Round robin: within a few requests the other process answers, and knows the member.
    const servedBy = new Set<string>();
    for (let i = 0; i < 10 && servedBy.size < 2; i++) {
      const dashboard = await request('/api/v2/profiles/me/dashboard/', { headers: { Cookie: cookie } });
      expect(dashboard.status).toBe(200);
      const me = await request('/api/v2/profiles/me/', { headers: { Cookie: cookie } });
      expect(me.status).toBe(200);
      expect(JSON.parse(me.body).email).toBe(member.email);
      servedBy.add(String(dashboard.headers['x-instance']));
      servedBy.add(String(me.headers['x-instance']));
    }
    expect([...servedBy].sort()).toEqual(['node-1', 'node-2']);
    // A signed-in request on the process that did not sign the member in.
    const other = loginInstance === 'node-1' ? 'node-2' : 'node-1';
    expect(servedBy.has(other)).toBe(true);
  });

  function askForReset(email: string, headers: Record<string, string> = {}): Promise<Answer> {
    resetRequests += 1;
    const token = newToken();
    return request('/api/v2/profiles/reset-password/', {
      method: 'POST',
      headers: { Cookie: `csrftoken=${token}`, 'X-CSRFToken': token, ...headers },
      body: { email },
    });
  }

  test('a rate limit counts the requests both processes answered (5 resets per email an hour)', async () => {
    const email = `limited-${crypto.randomBytes(4).toString('hex')}@example.com`;
    const servedBy = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const answer = await askForReset(email);
      expect(answer.status).toBe(200);
      servedBy.add(String(answer.headers['x-instance']));
    }
    // Neither process answered five on its own, yet the sixth is refused.
    expect([...servedBy].sort()).toEqual(['node-1', 'node-2']);
    expect((await askForReset(email)).status).toBe(429);
  });

  test('X-Forwarded-For from a client changes nothing: the per-address limit (50 an hour) still applies', async () => {
    const servedBy = new Set<string>();
    let refusedAt = 0;
    // Each request claims another client address and asks for another email: if the app
    // believed the header, every request would be a new address and none would be refused.
    while (resetRequests < 60) {
      const answer = await askForReset(`spoof-${resetRequests}-${crypto.randomBytes(3).toString('hex')}@example.com`, {
        'X-Forwarded-For': `${spoofedAddress()}, ${spoofedAddress()}`,
        'X-Real-IP': spoofedAddress(),
        Forwarded: `for=${spoofedAddress()}`,
      });
      servedBy.add(String(answer.headers['x-instance']));
      if (answer.status === 429) {
        refusedAt = resetRequests;
        break;
      }
      expect(answer.status).toBe(200);
    }
    // The 51st reset request from this one address (counting those above) is the first refused.
    expect(refusedAt).toBe(51);
    expect([...servedBy].sort()).toEqual(['node-1', 'node-2']);
  });

  interface LoadResult {
    ok: boolean;
    instance?: string;
    sentAt: number;
    detail?: string;
  }

  /**
   * A steady stream of a member's GETs (never cached) on `connections` keep-alive connections
   * while `during` runs, once both processes have answered some; then a while longer.
   */
  async function underLoad(connections: number, during: () => Promise<void>, afterMs: number): Promise<{ results: LoadResult[]; startedAt: number; inFlightAtStart: number }> {
    const loadAgent = new https.Agent({ ca: stack.ca, keepAlive: true, maxSockets: connections });
    let inFlight = 0;
    let stopAt = Number.POSITIVE_INFINITY;
    const results: LoadResult[] = [];
    async function worker(): Promise<void> {
      while (Date.now() < stopAt) {
        const sentAt = Date.now();
        inFlight += 1;
        try {
          const answer = await request('/api/v2/profiles/me/', { headers: { Cookie: member.cookie }, agent: loadAgent });
          results.push({ ok: answer.status === 200, instance: answer.headers['x-instance'] as string | undefined, sentAt, detail: answer.status === 200 ? undefined : `${answer.status} ${answer.body.slice(0, 200)}` });
        } catch (err) {
          results.push({ ok: false, sentAt, detail: (err as Error).message });
        } finally {
          inFlight -= 1;
        }
      }
    }
    const workers = Array.from({ length: connections }, () => worker());
    const until = Date.now() + 20_000;
    while (Date.now() < until && !(results.some((r) => r.instance === 'node-1') && results.some((r) => r.instance === 'node-2') && results.length > 50)) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const inFlightAtStart = inFlight;
    const startedAt = Date.now();
    await during();
    await new Promise((r) => setTimeout(r, afterMs));
    stopAt = Date.now();
    await Promise.all(workers);
    loadAgent.destroy();
    expect(results.filter((r) => r.sentAt <= startedAt && r.ok).length).toBeGreaterThan(50);
    return { results, startedAt, inFlightAtStart };
  }

  test('live co-editing’s websocket passes through nginx: a member without a newsroom role is refused (403), a writer is upgraded (101)', async () => {
    const upgrade = (cookie: string) => websocketUpgradeStatus(`${stack.url.replace(/^https:/, 'wss:')}${LIVE_EDITING.path}`, { Cookie: cookie, Origin: new URL(stack.url).origin }, { ca: stack.ca });
    expect(await upgrade(member.cookie)).toBe(403);
    const handle = await openDatabase({ databaseUrl });
    await handle.db('profiles').where({ email: member.email }).update({ newsroom_role: 'writer' });
    await handle.close();
    expect(await upgrade(member.cookie)).toBe(101);
  });

  test('a rolling restart (SIGTERM, start again, the next one) under load fails no request', async () => {
    const { results, startedAt } = await underLoad(
      8,
      async () => {
        for (let i = 0; i < stack.processes.length; i++) await stack.restart(i);
      },
      1000,
    );
    const failures = results.filter((r) => !r.ok);
    if (failures.length) console.error(failures.slice(0, 10));
    expect(failures).toEqual([]);
    const after = results.filter((r) => r.sentAt > startedAt);
    expect(new Set(after.map((r) => r.instance))).toEqual(new Set(['node-1', 'node-2']));
  });

  test('a process killed (SIGKILL) under load costs no failed request beyond those it had in flight', async () => {
    const victim = stack.processes[0];
    const { results, startedAt: killedAt, inFlightAtStart: inFlightAtKill } = await underLoad(
      8,
      async () => {
        victim.child.kill('SIGKILL');
        await victim.exited;
      },
      3000,
    );
    const failures = results.filter((r) => !r.ok);
    const after = results.filter((r) => r.sentAt > killedAt);
    expect(after.length).toBeGreaterThan(20);
    expect(after.filter((r) => r.ok).every((r) => r.instance === 'node-2')).toBe(true);
    if (failures.length > inFlightAtKill) console.error(failures.slice(0, 10));
    expect(failures.length).toBeLessThanOrEqual(inFlightAtKill);
    // Of those sent once the process was gone, none failed.
    expect(after.filter((r) => !r.ok)).toEqual([]);
  });
});
