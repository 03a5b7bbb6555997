import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMember, createTestContext, memberAgent, type Agent, type TestContext } from '../../testing/test-app';
import { createArticleType } from '../../testing/fixtures';
import { createLinkChecker, LINK_CHECK_LIMITS, type LinkCheckLimits } from './link-check';
import type { StoryDoc } from '../../../shared/newsroom';

// Links to other sites in a story, checked against a server of the test's own on 127.0.0.1
// (loopback is allowed by this test's config only, as for the calendar feeds' tests; every
// other private address stays refused), and only ever warned about.

const seen: Array<{ method: string; path: string }> = [];
const hanging: http.ServerResponse[] = [];
let open = 0;
let mostOpen = 0;
const server = http.createServer((req, res) => {
  const path = req.url ?? '';
  seen.push({ method: req.method ?? '', path });
  if (path === '/hang') return void hanging.push(res);
  if (path.startsWith('/slow/')) {
    mostOpen = Math.max(mostOpen, ++open);
    return void setTimeout(() => {
      open--;
      res.writeHead(200).end();
    }, 40);
  }
  if (path === '/ok') return void res.writeHead(200, { 'Content-Type': 'text/html' }).end('<p>hi</p>');
  if (path === '/get-only') return void res.writeHead(req.method === 'HEAD' ? 405 : 200).end();
  if (path === '/moved') return void res.writeHead(301, { Location: '/ok' }).end();
  if (path === '/to-metadata') return void res.writeHead(302, { Location: 'http://169.254.169.254/latest/meta-data/' }).end();
  if (path === '/loop') return void res.writeHead(302, { Location: '/loop' }).end();
  res.writeHead(404).end();
});
let base: string;

const limits: LinkCheckLimits = { ...LINK_CHECK_LIMITS, allowLoopback: true };
const requestsTo = (path: string) => seen.filter((r) => r.path === path).map((r) => r.method);

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const res of hanging) res.destroy();
  await new Promise((resolve) => server.close(resolve));
});

describe('checking links to other sites', () => {
  test('a page that answers 200, directly or through a redirect, has no problem; a 404 says so', async () => {
    const found = await createLinkChecker(limits).check([`${base}/ok`, `${base}/moved`, `${base}/missing`]);
    expect(Object.fromEntries(found)).toEqual({ [`${base}/ok`]: null, [`${base}/moved`]: null, [`${base}/missing`]: 'answered 404 Not Found' });
    expect(requestsTo('/ok')).toContain('HEAD');
    expect(requestsTo('/ok')).not.toContain('GET');
  });

  test('HEAD refused with 405 is asked again with GET', async () => {
    const found = await createLinkChecker(limits).check([`${base}/get-only`]);
    expect(found.get(`${base}/get-only`)).toBeNull();
    expect(requestsTo('/get-only')).toEqual(['HEAD', 'GET']);
  });

  test('a private address is refused without a request, and so is a redirect to one', async () => {
    const found = await createLinkChecker(limits).check(['http://10.0.0.1/', 'http://169.254.169.254/latest/meta-data/', 'http://[::ffff:192.168.1.1]/', `${base}/to-metadata`]);
    expect(found.get('http://10.0.0.1/')).toBe('points to a private address (10.0.0.1)');
    expect(found.get('http://169.254.169.254/latest/meta-data/')).toBe('points to a private address (169.254.169.254)');
    expect(found.get('http://[::ffff:192.168.1.1]/')).toMatch(/^points to a private address/);
    expect(found.get(`${base}/to-metadata`)).toBe('redirects to http://169.254.169.254/latest/meta-data/, which points to a private address (169.254.169.254)');
    // Without the test's allowance, this server's own address is refused the same way, never asked.
    const before = seen.length;
    const strict = await createLinkChecker({ ...limits, allowLoopback: false }).check([`${base}/ok`]);
    expect(strict.get(`${base}/ok`)).toBe('points to a private address (127.0.0.1)');
    expect(seen.length).toBe(before);
  });

  test('a server that never answers times out; one that is not there cannot be reached; redirects end', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const gone = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/`;
    await new Promise((resolve) => closed.close(resolve));
    const started = Date.now();
    const hung = await createLinkChecker({ ...limits, timeoutMs: 400 }).check([`${base}/hang`]);
    expect(hung.get(`${base}/hang`)).toBe('timed out (no answer in 0.4 s)');
    expect(Date.now() - started).toBeLessThan(3_000);
    const found = await createLinkChecker(limits).check([gone, `${base}/loop`]);
    expect(found.get(gone)).toBe('could not be reached (ECONNREFUSED)');
    expect(found.get(`${base}/loop`)).toBe('redirects more than 3 times');
  });

  test('answers are kept for a while; links are checked a few at a time, at most maxLinks', async () => {
    const checker = createLinkChecker({ ...limits, concurrency: 3, maxLinks: 10 });
    const links = Array.from({ length: 12 }, (_, i) => `${base}/slow/${i}`);
    const found = await checker.check(links);
    expect([...found.keys()].sort()).toEqual(links.slice(0, 10).sort());
    expect(mostOpen).toBeGreaterThan(1);
    expect(mostOpen).toBeLessThanOrEqual(3);
    const asked = seen.length;
    await checker.check(links.slice(0, 10));
    expect(seen.length).toBe(asked);
  });
});

describe('the checks before publishing', () => {
  let t: TestContext;
  let writer: Agent;
  let typeId: number;

  beforeAll(async () => {
    t = await createTestContext({}, { calendarFeeds: { intervalMinutes: 60, fetchTimeoutMs: 400, maxBytes: 64 * 1024, maxEvents: 5, maxRedirects: 3, allowLoopback: true } });
    typeId = await createArticleType(t.ctx.db, 'food', 'Food');
    const m = await createMember(t.ctx, { full_name: 'Writer person', email: 'writer@example.com' });
    await t.ctx.db('profiles').where({ id: m.id }).update({ newsroom_role: 'editor' });
    writer = await memberAgent(t, m);
  });
  afterAll(() => t.close());

  test('warn about each bad link to another site, naming it and why, and never block publishing', async () => {
    const link = (href: string, text: string) => ({ type: 'text', text, marks: [{ type: 'link', attrs: { href } }] });
    const doc = { type: 'doc', content: [{ type: 'paragraph', content: [link(`${base}/ok`, 'Good'), link(`${base}/gone`, 'Gone'), link('http://10.0.0.1/admin', 'Router')] }] } as StoryDoc;
    const created = await writer.post('/api/v2/staff/stories/').set('X-CSRFToken', writer.csrfToken).send({ fields: { name: 'Links story', type_id: typeId, doc } }).expect(201);
    const id = created.body.id as number;
    const checks = await writer.get(`/api/v2/staff/stories/${id}/checks/`).expect(200);
    const links = checks.body.checks.filter((c: { code: string }) => c.code === 'external_link');
    expect(links).toEqual([
      { code: 'external_link', message: `The link to ${base}/gone answered 404 Not Found.`, blocking: false, field: 'doc' },
      { code: 'external_link', message: 'The link to http://10.0.0.1/admin points to a private address (10.0.0.1).', blocking: false, field: 'doc' },
    ]);
    const published = await writer.post(`/api/v2/staff/stories/${id}/publish/`).set('X-CSRFToken', writer.csrfToken).send({}).expect(200);
    expect(published.body.status).toBe('published');
  });

  test('publishing itself does not fetch other sites (their links only warn)', async () => {
    const doc = { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Elsewhere', marks: [{ type: 'link', attrs: { href: `${base}/not-asked` } }] }] }] } as StoryDoc;
    const created = await writer.post('/api/v2/staff/stories/').set('X-CSRFToken', writer.csrfToken).send({ fields: { name: 'Quiet story', type_id: typeId, doc } }).expect(201);
    await writer.post(`/api/v2/staff/stories/${created.body.id}/publish/`).set('X-CSRFToken', writer.csrfToken).send({}).expect(200);
    expect(requestsTo('/not-asked')).toEqual([]);
  });
});
