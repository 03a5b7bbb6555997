import { unzipSync, strFromU8 } from 'fflate';
import type request from 'supertest';
import { createApp } from '../../app';
import { createMember, createTestContext, guestAgent, memberSessionCookie, type Agent, type MemberFixture, type TestContext } from '../../testing/test-app';
import { createArticle, createContest, createEvent, createListing, createPhoto, createVideo } from '../../testing/fixtures';
import { EXPORT_PATH, EXPORT_RATE_LIMIT } from './api';
import { BATCH_SIZE } from './member-row-queries';

// Dashboard → Your data (issue 16): a member downloads a ZIP of everything kept about them,
// and nothing of anybody else's. Two members get one of everything each; the ZIP of the first
// must hold every row of theirs and no trace of the second.

type Files = Record<string, Uint8Array>;

function binary(res: request.Response, done: (err: Error | null, body: Buffer) => void) {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => done(null, Buffer.concat(chunks)));
}

async function download(agent: Agent): Promise<{ res: request.Response; files: Files }> {
  const res = await agent.get(EXPORT_PATH).buffer(true).parse(binary);
  expect(res.status).toBe(200);
  return { res, files: unzipSync(new Uint8Array(res.body as Buffer)) };
}

const text = (files: Files, name: string) => {
  expect(Object.keys(files)).toContain(name);
  return strFromU8(files[name]);
};
const json = (files: Files, name: string) => JSON.parse(text(files, name));

/** A CSV's rows as arrays of fields (RFC 4180 quoting), the byte order mark dropped. */
function parseCsv(source: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const s = source.replace(/^\ufeff/, '');
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (quoted && c === '"' && s[i + 1] === '"') {
      field += '"';
      i++;
    } else if (c === '"') {
      quoted = !quoted;
    } else if (!quoted && c === ',') {
      row.push(field);
      field = '';
    } else if (!quoted && c === '\r' && s[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else {
      field += c;
    }
  }
  if (field || row.length) rows.push([...row, field]);
  return rows;
}

interface Seeded {
  member: MemberFixture;
  agent: Agent;
  names: string[];
  photoBytes: Buffer;
  photoId: number;
}

describe('Your data: the member export', () => {
  let t: TestContext;
  let a: Seeded;
  let b: Seeded;

  /** One of everything for a member whose every name starts with `tag`, signed in through the login API. */
  async function seed(tag: string): Promise<Seeded> {
    const db = t.ctx.db;
    const member = await createMember(t.ctx, { full_name: `${tag} Person` });
    const favourite = await createListing(db, { name: `${tag} Favourite Cafe` });
    const todo = await createListing(db, { name: `${tag} Todo Diner` });
    const rated = await createListing(db, { name: `${tag} Rated Bar` });
    const article = await createArticle(db, { name: `${tag} Saved Article` });
    const video = await createVideo(db, { title: `${tag} Saved Video` });
    const event = await createEvent(db, { title: `${tag} Saved Concert` });
    await createEvent(db, { title: `${tag} Submitted Fair`, status: 'pending', submitted_by: member.id });
    const p = member.id;
    await db('favourites').insert({ profile_id: p, listing_id: favourite });
    await db('todos').insert({ profile_id: p, listing_id: todo });
    await db('ratings').insert({ profile_id: p, listing_id: rated, rating: 4 });
    await db('article_bookmarks').insert({ profile_id: p, article_id: article });
    await db('video_bookmarks').insert({ profile_id: p, video_id: video });
    await db('event_bookmarks').insert({ profile_id: p, event_id: event });
    const contest = await createContest(db, { title: `${tag} Ticket Giveaway` });
    await db('contest_entries').insert({ contest_id: contest, profile_id: p, skill_answer: null });
    await db('contact_messages').insert({ profile_id: p, question_category: 'general', comment: `${tag} contact comment`, name: `${tag} Person`, email: member.email });
    const image_key = `photos/test/${tag.toLowerCase()}-photo.jpg`;
    const photoBytes = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from(`${tag} image bytes `.repeat(50))]);
    await t.ctx.storage.put(image_key, photoBytes);
    const photoId = await createPhoto(db, { profile_id: p, listing_id: favourite, title: `${tag} Photo Title`, image_key });
    const avatar = `avatars/test/${tag.toLowerCase()}.png`;
    await t.ctx.storage.put(avatar, Buffer.from(`${tag} avatar bytes`));
    await db('profiles').where({ id: p }).update({ avatar });

    const agent = guestAgent(t.app);
    const login = await agent.post('/api/v2/profiles/email-login/').set('X-CSRFToken', agent.csrfToken).set('User-Agent', `${tag}Browser/1.0`).send({ email: member.email, password: member.password });
    expect(login.status).toBe(200);
    const names = [`${tag} Favourite Cafe`, `${tag} Todo Diner`, `${tag} Rated Bar`, `${tag} Saved Article`, `${tag} Saved Video`, `${tag} Saved Concert`, `${tag} Submitted Fair`, `${tag} Photo Title`, `${tag} Ticket Giveaway`, `${tag} contact comment`, `${tag}Browser/1.0`, member.email];
    return { member, agent, names, photoBytes, photoId };
  }

  beforeAll(async () => {
    t = await createTestContext();
    a = await seed('Alpha');
    b = await seed('Bravo');
  });
  afterAll(() => t.close());

  test('is a private attachment, never stored by a cache', async () => {
    const { res } = await download(a.agent);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="[a-z0-9-]+-your-data-\d{4}-\d{2}-\d{2}\.zip"$/);
    expect(res.headers['cache-control']).toBe('private, no-store');
  });

  test("holds every one of the member's rows and nothing of another member's", async () => {
    const { files } = await download(a.agent);
    const everything = Object.entries(files)
      .filter(([name]) => !name.startsWith('photos/'))
      .map(([, bytes]) => strFromU8(bytes))
      .join('\n');
    for (const name of a.names) expect([name, everything.includes(name)]).toEqual([name, true]);
    for (const name of b.names) expect([name, everything.includes(name)]).toEqual([name, false]);
    expect(everything).not.toContain('Bravo');

    expect(json(files, 'profile.json')).toMatchObject({ id: a.member.id, email: a.member.email, full_name: 'Alpha Person', has_password: true });
    expect(text(files, 'profile.json')).not.toMatch(/argon2|password_hash|ics_token/);
    expect(json(files, 'favourites.json')).toEqual([expect.objectContaining({ listing_name: 'Alpha Favourite Cafe', listing_url: expect.stringMatching(/^http.*-\d+\/$/) })]);
    expect(json(files, 'ratings.json')).toEqual([expect.objectContaining({ listing_name: 'Alpha Rated Bar', rating: 4 })]);
    expect(json(files, 'article-bookmarks.json')).toEqual([expect.objectContaining({ article_name: 'Alpha Saved Article', article_url: expect.stringContaining('/news/') })]);
    expect(json(files, 'video-bookmarks.json')).toEqual([expect.objectContaining({ video_title: 'Alpha Saved Video', video_url: expect.stringContaining('/videos/') })]);
    expect(json(files, 'event-bookmarks.json')).toEqual([expect.objectContaining({ event_title: 'Alpha Saved Concert', event_url: expect.stringContaining('/events/') })]);
    expect(json(files, 'submitted-events.json')).toEqual([expect.objectContaining({ title: 'Alpha Submitted Fair', status: 'pending', event_url: null })]);
    expect(json(files, 'login-history.json')).toEqual([expect.objectContaining({ method: 'password', user_agent: 'AlphaBrowser/1.0', ip: expect.any(String) })]);
    expect(json(files, 'contest-entries.json')).toEqual([
      expect.objectContaining({ contest_title: 'Alpha Ticket Giveaway', contest_url: expect.stringMatching(/^http.*\/contests\/alpha-ticket-giveaway-\d+\/$/), skill_answer: null }),
    ]);
    const entriesCsv = parseCsv(text(files, 'contest-entries.csv'));
    expect(entriesCsv).toHaveLength(2);
    expect(entriesCsv[1][entriesCsv[0].indexOf('contest_title')]).toBe('Alpha Ticket Giveaway');
    expect(json(files, 'contact-messages.json')).toEqual([expect.objectContaining({ comment: 'Alpha contact comment' })]);
    const newsletters = json(files, 'newsletters.json');
    expect(newsletters.length).toBeGreaterThan(0);
    expect(newsletters[0]).toEqual(expect.objectContaining({ source: 'account', subscribed: false }));
  });

  test('every file is listed in the README and parses as its format says', async () => {
    const { files } = await download(a.agent);
    const readme = text(files, 'README.txt');
    const names = Object.keys(files);
    for (const base of ['profile', 'newsletters', 'favourites', 'todos', 'ratings', 'article-bookmarks', 'video-bookmarks', 'event-bookmarks', 'submitted-events', 'contest-entries', 'login-history', 'contact-messages', 'photos']) {
      for (const ext of base === 'profile' ? ['json'] : ['json', 'csv']) expect(names).toContain(`${base}.${ext}`);
      expect(readme).toContain(`${base}.json`);
    }
    for (const name of names.filter((n) => n.endsWith('.json'))) expect(() => JSON.parse(strFromU8(files[name]))).not.toThrow();
    for (const name of names.filter((n) => n.endsWith('.csv'))) {
      const rows = parseCsv(strFromU8(files[name]));
      const rowsOfJson = json(files, name.replace(/\.csv$/, '.json'));
      // A header, then one line per JSON row, each as wide as the header.
      expect([name, rows.length]).toEqual([name, rowsOfJson.length + 1]);
      expect(rows[0]).toEqual(Object.keys(rowsOfJson[0] ?? {}).length ? Object.keys(rowsOfJson[0]) : rows[0]);
      for (const row of rows) expect(row).toHaveLength(rows[0].length);
    }
    const favouritesCsv = parseCsv(text(files, 'favourites.csv'));
    expect(favouritesCsv[1][favouritesCsv[0].indexOf('listing_name')]).toBe('Alpha Favourite Cafe');

    const geo = json(files, 'favourites.geojson');
    expect(geo.type).toBe('FeatureCollection');
    expect(geo.features).toEqual([
      expect.objectContaining({ type: 'Feature', geometry: { type: 'Point', coordinates: [-79.39, 43.65] }, properties: expect.objectContaining({ name: 'Alpha Favourite Cafe' }) }),
    ]);

    const ics = text(files, 'saved-events.ics');
    const lines = ics.replace(/\r\n /g, '').split('\r\n');
    expect(lines[0]).toBe('BEGIN:VCALENDAR');
    expect(lines.filter(Boolean).at(-1)).toBe('END:VCALENDAR');
    expect(lines.filter((l) => l === 'BEGIN:VEVENT')).toHaveLength(lines.filter((l) => l === 'END:VEVENT').length);
    expect(lines).toContain('SUMMARY:Alpha Saved Concert');
    expect(lines.some((l) => /^DTSTART:\d{8}T\d{6}Z$/.test(l))).toBe(true);
  });

  test("holds the photos' image files, byte for byte", async () => {
    const { files } = await download(a.agent);
    const photos = json(files, 'photos.json');
    expect(photos).toEqual([expect.objectContaining({ id: a.photoId, title: 'Alpha Photo Title', image_file: `photos/${a.photoId}.jpg` })]);
    expect(Buffer.from(files[`photos/${a.photoId}.jpg`]).equals(a.photoBytes)).toBe(true);
    expect(Object.keys(files).filter((n) => n.startsWith('photos/'))).toEqual([`photos/${a.photoId}.jpg`]);
    expect(json(files, 'profile.json').avatar_file).toBe('profile/avatar.png');
    expect(text(files, 'profile/avatar.png')).toBe('Alpha avatar bytes');
  });

  test('more saves than a page: every one once, in id order', async () => {
    const db = t.ctx.db;
    const member = await createMember(t.ctx);
    const typeId = (await db('listing_types').first('id')).id;
    const count = BATCH_SIZE * 2 + 1;
    const listings = await db('listings')
      .insert(Array.from({ length: count }, (_, i) => ({ name: `Paged place ${i}`, slug: `paged-place-${i}`, type_id: typeId })))
      .returning('id');
    await db('favourites').insert(listings.map((l: { id: number }) => ({ profile_id: member.id, listing_id: l.id })));
    const agent = guestAgent(t.app);
    await agent.post('/api/v2/profiles/email-login/').set('X-CSRFToken', agent.csrfToken).send({ email: member.email, password: member.password });
    const { files } = await download(agent);
    const ids = json(files, 'favourites.json').map((f: { id: number }) => f.id);
    expect(ids).toHaveLength(count);
    expect([...ids].sort((x, y) => x - y)).toEqual(ids);
    expect(new Set(ids).size).toBe(count);
    expect(parseCsv(text(files, 'favourites.csv'))).toHaveLength(count + 1);
    expect(json(files, 'favourites.geojson').features).toHaveLength(count);
  });

  test('saved events with more occurrences than a page: every occurrence once in the ICS', async () => {
    const db = t.ctx.db;
    const member = await createMember(t.ctx);
    const daily = await createEvent(db, { title: 'Daily Market', schedule: { schedule_type: 'day_range', start_date: '2026-01-01', end_date: '2027-11-30', start_time: '09:00', end_time: '17:00' } });
    const once = await createEvent(db, { title: 'One Night Only' });
    await db('event_bookmarks').insert([{ profile_id: member.id, event_id: daily }, { profile_id: member.id, event_id: once }]);
    const occurrences = Number((await db('event_occurrences').whereIn('event_id', [daily, once]).count({ n: '*' }).first())?.n);
    expect(occurrences).toBeGreaterThan(BATCH_SIZE);
    const agent = guestAgent(t.app);
    await agent.post('/api/v2/profiles/email-login/').set('X-CSRFToken', agent.csrfToken).send({ email: member.email, password: member.password });
    const { files } = await download(agent);
    const lines = text(files, 'saved-events.ics').replace(/\r\n /g, '').split('\r\n');
    const uids = lines.filter((l) => l.startsWith('UID:'));
    expect(uids).toHaveLength(occurrences);
    expect(new Set(uids).size).toBe(occurrences);
    expect(lines.filter((l) => l === 'SUMMARY:One Night Only')).toHaveLength(1);
  });

  test("the second member's export is theirs alone", async () => {
    const { files } = await download(b.agent);
    const all = Object.values(files).map((f) => strFromU8(f)).join('\n');
    for (const name of b.names) expect([name, all.includes(name)]).toEqual([name, true]);
    expect(all).not.toContain('Alpha');
  });

  test('the dashboard page links the download and the account deletion, without JavaScript too', async () => {
    const res = await a.agent.get('/accounts/dashboard/');
    expect(res.status).toBe(200);
    expect(res.text).toContain(`href="${EXPORT_PATH}" download`);
    expect(res.text).toContain('href="/accounts/delete/"');
  });

  test('a failure before the first byte is an error page, not an attachment', async () => {
    const broken = createApp({ ...t.ctx, storage: { ...t.ctx.storage, exists: () => Promise.reject(new Error('storage away')) } }, { watchManifest: false });
    const agent = guestAgent(broken);
    agent.jar.setCookie(`${await memberSessionCookie(t, a.member)}; Path=/`);
    const res = await agent.get(EXPORT_PATH);
    expect(res.status).toBe(500);
    expect(res.headers['content-disposition']).toBeUndefined();
    expect(res.headers['content-type']).not.toMatch(/zip/);
  });

  test('guests are sent to log in and come back to the download', async () => {
    const res = await guestAgent(t.app).get(EXPORT_PATH);
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe(`/accounts/login?next=${encodeURIComponent(EXPORT_PATH)}`);
  });

  test('is rate limited per member', async () => {
    const app = t.rebuild({ RATE_LIMITS: 'true' });
    const member = await createMember(t.ctx);
    const agent = guestAgent(app);
    const login = await agent.post('/api/v2/profiles/email-login/').set('X-CSRFToken', agent.csrfToken).send({ email: member.email, password: member.password });
    expect(login.status).toBe(200);
    for (let i = 0; i < EXPORT_RATE_LIMIT.limit; i++) expect((await agent.get(EXPORT_PATH).buffer(true).parse(binary)).status).toBe(200);
    const refused = await agent.get(EXPORT_PATH);
    expect(refused.status).toBe(429);
    // Another member has their own budget.
    const other = await createMember(t.ctx);
    const otherAgent = guestAgent(app);
    await otherAgent.post('/api/v2/profiles/email-login/').set('X-CSRFToken', otherAgent.csrfToken).send({ email: other.email, password: other.password });
    expect((await otherAgent.get(EXPORT_PATH).buffer(true).parse(binary)).status).toBe(200);
  });

  test("HEAD answers the download's headers without building the ZIP", async () => {
    // Every storage call counted: the export reads the avatar and the photo, HEAD must not.
    const storageCalls: string[] = [];
    const storage = new Proxy(t.ctx.storage, {
      get: (target, name, receiver) => {
        const value = Reflect.get(target, name, receiver);
        return typeof value === 'function' ? (...args: unknown[]) => (storageCalls.push(String(name)), value.apply(target, args)) : value;
      },
    });
    const queries: string[] = [];
    const onQuery = (q: { sql: string }) => queries.push(q.sql);
    const app = createApp({ ...t.ctx, storage }, { watchManifest: false });
    const agent = guestAgent(app);
    agent.jar.setCookie(`${await memberSessionCookie(t, a.member)}; Path=/`);
    t.ctx.db.on('query', onQuery);
    const head = await agent.head(EXPORT_PATH);
    t.ctx.db.off('query', onQuery);
    expect(head.status).toBe(200);
    expect(head.headers['content-type']).toBe('application/zip');
    expect(head.headers['content-disposition']).toMatch(/^attachment; filename="[a-z0-9-]+-your-data-\d{4}-\d{2}-\d{2}\.zip"$/);
    expect(head.headers['cache-control']).toBe('private, no-store');
    expect(head.body).toEqual({});
    expect(storageCalls).toEqual([]);
    // The session and its member only: none of the export's tables is read.
    expect(queries.filter((sql) => /favourites|ratings|contest_entries|photos|calendar_credentials|login_history/.test(sql))).toEqual([]);
    // The same request as GET does build it (so the spies above can see an export).
    await agent.get(EXPORT_PATH).buffer(true).parse(binary);
    expect(storageCalls.length).toBeGreaterThan(0);
  });

  test('HEAD is not counted against the hourly exports, and says 429 once GET would', async () => {
    const app = t.rebuild({ RATE_LIMITS: 'true' });
    const member = await createMember(t.ctx);
    const agent = guestAgent(app);
    agent.jar.setCookie(`${await memberSessionCookie(t, member)}; Path=/`);
    const hits = async () => Number((await t.ctx.db('rate_limits').where({ key: `member-export:member:${member.id}` }).first('hits'))?.hits ?? 0);
    for (let i = 0; i < EXPORT_RATE_LIMIT.limit + 2; i++) expect((await agent.head(EXPORT_PATH)).status).toBe(200);
    expect(await hits()).toBe(0);
    for (let i = 0; i < EXPORT_RATE_LIMIT.limit; i++) expect((await agent.get(EXPORT_PATH).buffer(true).parse(binary)).status).toBe(200);
    expect(await hits()).toBe(EXPORT_RATE_LIMIT.limit);
    expect((await agent.head(EXPORT_PATH)).status).toBe(429);
    expect((await agent.get(EXPORT_PATH)).status).toBe(429);
    expect((await guestAgent(app).head(EXPORT_PATH)).headers.location).toBe(`/accounts/login?next=${encodeURIComponent(EXPORT_PATH)}`);
  });
});
