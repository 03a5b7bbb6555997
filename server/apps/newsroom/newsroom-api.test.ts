import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { pngImage } from '../media/test-images';
import { createApp } from '../../app';
import { createMember, createTestContext, guestAgent, memberAgent, type Agent, type MemberFixture, type TestContext } from '../../testing/test-app';
import { createArticleType, createListing, createListingType } from '../../testing/fixtures';
import { recentStaffActions } from '../staff-audit/audit-log-queries';
import { createNewsroomService } from './service';
import type { NewsroomRole, StoryDoc } from '../../../shared/newsroom';

// The newsroom's API in the real app (issue 37): who may do what, saving with a version (fields
// merge, a field two people changed is a conflict), the schema's 400s, publishing through the
// checks, scheduling (on time and late), unpublishing, slug changes as 301s, revisions and
// restore, preview links, presence. Each public page is read as a guest would read it.

const doc = (...paragraphs: string[]): StoryDoc => ({ type: 'doc', content: paragraphs.map((p) => ({ type: 'paragraph', content: [{ type: 'text', text: p }] })) });

describe('the newsroom API', () => {
  let t: TestContext;
  const agents: Partial<Record<NewsroomRole | 'member', Agent>> = {};
  const members: Partial<Record<NewsroomRole | 'member', MemberFixture>> = {};
  let typeId: number;
  let clock = new Date('2026-11-29T15:00:00Z');

  beforeAll(async () => {
    t = await createTestContext();
    t.ctx.now = () => clock;
    t.app = createApp(t.ctx, { watchManifest: false });
    typeId = await createArticleType(t.ctx.db, 'food', 'Food');
    for (const role of ['contributor', 'writer', 'editor', 'administrator', 'member'] as const) {
      const m = await createMember(t.ctx, { full_name: `${role} person`, email: `${role}@example.com` });
      if (role !== 'member') await t.ctx.db('profiles').where({ id: m.id }).update({ newsroom_role: role });
      members[role] = m;
      agents[role] = await memberAgent(t, m);
    }
  });
  afterAll(() => t.close());

  const api = (role: NewsroomRole | 'member') => {
    const a = agents[role]!;
    return {
      get: (p: string) => a.get(`/api/v2/staff/${p}`),
      post: (p: string, body: object = {}) => a.post(`/api/v2/staff/${p}`).set('X-CSRFToken', a.csrfToken).send(body),
      patch: (p: string, body: object) => a.patch(`/api/v2/staff/${p}`).set('X-CSRFToken', a.csrfToken).send(body),
      del: (p: string) => a.delete(`/api/v2/staff/${p}`).set('X-CSRFToken', a.csrfToken),
    };
  };

  async function newStory(role: NewsroomRole, name: string, body = doc('First paragraph about the market.')) {
    const res = await api(role).post('stories/', { fields: { name, type_id: typeId, doc: body, excerpt: 'A dek.' } }).expect(201);
    return res.body as { id: number; version: number; status: string };
  }

  test('a guest gets 401, a member without a role 403, on every newsroom call and page', async () => {
    await guestAgent(t.app).get('/api/v2/staff/stories/').expect(401);
    await api('member').get('stories/').expect(403);
    await api('member').post('stories/', { fields: {} }).expect(403);
    const page = await agents.member!.get('/staff/stories/');
    expect(page.status).toBe(403);
    const guestPage = await request(t.app).get('/staff/stories/').expect(302);
    expect(guestPage.headers.location).toBe('/accounts/login?next=%2Fstaff%2Fstories%2F');
  });

  test('a contributor writes and submits a draft but may not publish or schedule; an editor may', async () => {
    const s = await newStory('contributor', 'Contributor’s story');
    await api('contributor').post(`stories/${s.id}/submit/`).expect(200);
    const denied = await api('contributor').post(`stories/${s.id}/publish/`).expect(403);
    expect(denied.body.detail).toMatch(/Contributors cannot publish/);
    await api('contributor').post(`stories/${s.id}/schedule/`, { publish_at: '2026-12-01T09:00' }).expect(403);
    // A writer may not open another writer's story; an editor may, and publish it.
    await api('writer').get(`stories/${s.id}/`).expect(403);
    const published = await api('editor').post(`stories/${s.id}/publish/`).expect(200);
    expect(published.body.status).toBe('published');
    const page = await request(t.app).get(published.body.path).expect(200);
    expect(page.text).toContain('<p>First paragraph about the market.</p>');
    const audit = await recentStaffActions(t.ctx.db, { subjectType: 'story', subjectId: s.id });
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(['story.submit', 'story.publish']));
  });

  test('a body outside the schema is a 400 naming the node, mark or attribute, and nothing is saved', async () => {
    const s = await newStory('writer', 'Schema story');
    const bad = (d: unknown) => api('writer').patch(`stories/${s.id}/`, { base_version: s.version, fields: { name: 'Changed', doc: d } });
    const table = await bad({ type: 'doc', content: [{ type: 'table' }] }).expect(400);
    expect(table.body.doc[0]).toBe('Unknown node “table” at body.content[0].');
    const onclick = await bad({ type: 'doc', content: [{ type: 'paragraph', attrs: { onclick: 'x()' } }] }).expect(400);
    expect(onclick.body.doc[0]).toMatch(/Unknown attribute “onclick” on paragraph/);
    const js = await bad({ type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'x', marks: [{ type: 'link', attrs: { href: 'javascript:alert(1)' } }] }] }] }).expect(400);
    expect(js.body.doc[0]).toMatch(/link .*href/);
    const strike = await bad({ type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'x', marks: [{ type: 'strike' }] }] }] }).expect(400);
    expect(strike.body.doc[0]).toMatch(/Unknown mark “strike”/);
    const after = await api('writer').get(`stories/${s.id}/`).expect(200);
    expect(after.body.fields.name).toBe('Schema story');
    expect(after.body.version).toBe(s.version);
  });

  test('two saves from one version: different fields merge, the same field is a conflict with both versions', async () => {
    const s = await newStory('editor', 'Merge story');
    const a = await api('editor').patch(`stories/${s.id}/`, { base_version: s.version, fields: { excerpt: 'Excerpt from A' } }).expect(200);
    // B started from the same version and changes another field: merged.
    const b = await api('administrator').patch(`stories/${s.id}/`, { base_version: s.version, fields: { name: 'Headline from B' } }).expect(200);
    expect(b.body.fields).toMatchObject({ excerpt: 'Excerpt from A', name: 'Headline from B' });
    // B changes the body and the excerpt again from its old version: the excerpt conflicts, the body is saved.
    const c = await api('administrator').patch(`stories/${s.id}/`, { base_version: s.version, fields: { excerpt: 'Excerpt from B', doc: doc('Body from B.') } }).expect(409);
    expect(c.body.conflicts).toEqual([{ field: 'excerpt', mine: 'Excerpt from B', theirs: 'Excerpt from A' }]);
    expect(c.body.story.fields.doc).toEqual(doc('Body from B.'));
    // A, still on its version, edits the body too: both bodies come back for A to choose.
    const d = await api('editor').patch(`stories/${s.id}/`, { base_version: a.body.version, fields: { doc: doc('Body from A.') } }).expect(409);
    expect(d.body.conflicts[0]).toMatchObject({ field: 'doc', mine: doc('Body from A.'), theirs: doc('Body from B.') });
    // Choosing from the current version saves.
    const e = await api('editor').patch(`stories/${s.id}/`, { base_version: d.body.story.version, fields: { doc: doc('Body from A.', 'Body from B.') } }).expect(200);
    expect(e.body.fields.doc).toEqual(doc('Body from A.', 'Body from B.'));
  });

  test('publishing runs the checks: TK, alt text, sponsor; an editor overrides with a reason, a writer cannot', async () => {
    const body: StoryDoc = { type: 'doc', content: [
      { type: 'paragraph', content: [{ type: 'text', text: 'The patio opens TK.' }] },
      { type: 'image', attrs: { key: 'stories/patio.jpg', alt: '', credit: 'Photo: Ana', caption: '' } },
    ] };
    const s = await newStory('writer', 'Checks story', body);
    await api('writer').patch(`stories/${s.id}/`, { base_version: s.version, fields: { is_sponsored: true } }).expect(200);
    const checks = await api('writer').get(`stories/${s.id}/checks/`).expect(200);
    expect(checks.body.checks.filter((c: { blocking: boolean }) => c.blocking).map((c: { code: string }) => c.code).sort()).toEqual(['alt', 'sponsor', 'tk']);
    const refused = await api('writer').post(`stories/${s.id}/publish/`).expect(400);
    expect(refused.body.checks).toEqual(expect.arrayContaining(['The body still has “TK” in it.', 'Picture 1 in the body has no alt text.']));
    const writerOverride = await api('writer').post(`stories/${s.id}/publish/`, { override_reason: 'Trust me' }).expect(400);
    expect(writerOverride.body.non_field_errors[0]).toMatch(/Only an editor/);
    const ok = await api('editor').post(`stories/${s.id}/publish/`, { override_reason: 'Sponsor confirmed by phone; TK is the brand name.' }).expect(200);
    expect(ok.body.status).toBe('published');
    const audit = await recentStaffActions(t.ctx.db, { subjectType: 'story', subjectId: s.id });
    expect(audit.find((x) => x.action === 'story.override')?.note).toBe('Sponsor confirmed by phone; TK is the brand name.');
  });

  test('a live card of a closed place blocks publishing and shows “Closed” on the page', async () => {
    const lt = await createListingType(t.ctx.db, { name: 'Restaurants', slug: 'restaurants' });
    const place = await createListing(t.ctx.db, { name: 'Grey Gardens', type_id: lt });
    const s = await newStory('editor', 'Card story', { type: 'doc', content: [
      { type: 'paragraph', content: [{ type: 'text', text: 'Go here.' }] },
      { type: 'liveCard', attrs: { kind: 'place', id: place, label: 'Grey Gardens' } },
    ] });
    const published = await api('editor').post(`stories/${s.id}/publish/`).expect(200);
    let page = await request(t.app).get(published.body.path).expect(200);
    expect(page.text).toContain('Grey Gardens');
    expect(page.text).not.toContain('live-card__closed');
    await t.ctx.db('listings').where({ id: place }).update({ closed_on: '2026-11-20' });
    page = await request(t.rebuild()).get(published.body.path).expect(200);
    expect(page.text).toMatch(/class="live-card__closed">Closed</);
    const checks = await api('editor').get(`stories/${s.id}/checks/`).expect(200);
    expect(checks.body.checks.map((c: { code: string }) => c.code)).toContain('closed_place');
  });

  test('scheduled: nowhere public before its time, published by its job at the minute, or late and marked so', async () => {
    const s = await newStory('writer', 'Scheduled story');
    await api('writer').post(`stories/${s.id}/schedule/`, { publish_at: '2026-11-29T09:00' }).expect(400); // 14:00 UTC: past
    const sch = await api('writer').post(`stories/${s.id}/schedule/`, { publish_at: '2026-11-29T11:00' }).expect(200);
    expect(sch.body.status).toBe('scheduled');
    expect(sch.body.scheduled_at).toBe('2026-11-29T16:00:00.000Z');
    // The publishing job is queued for that minute (the scheduler runs it; below, the catch-up does).
    expect((await t.ctx.jobs.counts('story.publish')).created).toBeGreaterThanOrEqual(1);
    const newsroom = createNewsroomService(t.ctx);
    // Not yet: nothing happens, and the story is in no public list.
    expect(await newsroom.runDue()).toBe(0);
    expect((await request(t.app).get('/api/v2/articles/?limit=100')).body.results.map((a: { name: string }) => a.name)).not.toContain('Scheduled story');
    // Its time, 30 minutes late (no process was up): published, and says how late.
    clock = new Date('2026-11-29T16:30:00Z');
    try {
      // Its job still waits for a worker: the net leaves the story to it …
      expect(await newsroom.runDue()).toBe(0);
      // … and takes it once that job is gone (lost, or failed for good).
      await t.ctx.db.raw(`delete from pgboss.job where name = 'story.publish' and (data->>'id')::int = ?`, [s.id]);
      expect(await newsroom.runDue()).toBe(1);
      const after = await api('writer').get(`stories/${s.id}/`).expect(200);
      expect(after.body).toMatchObject({ status: 'published', published_late_minutes: 30, date_published: '2026-11-29T16:00:00.000Z' });
      // A second run of the same job does nothing.
      expect(await newsroom.publishDue(s.id, '2026-11-29T16:00:00.000Z')).toEqual([]);
      const audit = await recentStaffActions(t.ctx.db, { subjectType: 'story', subjectId: s.id });
      expect(audit.find((x) => x.action === 'story.publish')?.note).toBe('Scheduled; published 30 min late');
      await request(t.rebuild()).get(after.body.path).expect(200);
    } finally {
      clock = new Date('2026-11-29T15:00:00Z');
    }
  });

  test('a published story’s edits wait for Update; a slug change keeps the old path as a 301', async () => {
    const s = await newStory('writer', 'Slug story');
    const pub = await api('writer').post(`stories/${s.id}/publish/`).expect(200);
    const oldPath = pub.body.path;
    const edit = await api('writer').patch(`stories/${s.id}/`, { base_version: pub.body.version, fields: { slug: 'new-slug-story', doc: doc('Corrected text.') } }).expect(200);
    expect(edit.body.has_pending).toBe(true);
    let page = await request(t.rebuild()).get(oldPath).expect(200);
    expect(page.text).toContain('First paragraph about the market.');
    const upd = await api('writer').post(`stories/${s.id}/publish/`).expect(200);
    expect(upd.body.path).toMatch(/\/food\/2026\/11\/new-slug-story\/$/);
    const moved = await request(t.rebuild()).get(oldPath).expect(301);
    expect(moved.headers.location).toBe(upd.body.path);
    page = await request(t.rebuild()).get(upd.body.path).expect(200);
    expect(page.text).toContain('<p>Corrected text.</p>');
  });

  test('an imported site’s old addresses answer 301 to the story; unknown ones stay 404', async () => {
    const s = await newStory('writer', 'Imported story');
    const pub = await api('writer').post(`stories/${s.id}/publish/`).expect(200);
    await t.ctx.db('article_path_history').insert([{ path: '/2019/05/17/imported-story/', article_id: s.id }, { path: '/?p=123', article_id: s.id }]);
    expect((await request(t.app).get('/2019/05/17/imported-story/').expect(301)).headers.location).toBe(pub.body.path);
    expect((await request(t.app).get('/?p=123').expect(301)).headers.location).toBe(pub.body.path);
    await request(t.app).get('/2019/05/17/never-was/').expect(404);
    await request(t.app).get('/?p=999').expect(200); // the home page, as before
    // Unpublished: its old addresses lead nowhere either.
    await api('writer').post(`stories/${s.id}/unpublish/`).expect(200);
    await request(t.rebuild()).get('/2019/05/17/imported-story/').expect(404);
  });

  test('revisions: every field, listed, and restored as a new draft', async () => {
    const s = await newStory('writer', 'Revision story', doc('Version one.'));
    const v2 = await api('writer').patch(`stories/${s.id}/`, { base_version: s.version, fields: { name: 'Revision story, edited', seo_title: 'SEO two', doc: doc('Version two.') }, explicit: true }).expect(200);
    const list = await api('writer').get(`stories/${s.id}/revisions/`).expect(200);
    expect(list.body.results.map((r: { reason: string }) => r.reason)).toEqual(['explicit', 'first_save']);
    const first = list.body.results[1];
    const one = await api('writer').get(`stories/${s.id}/revisions/${first.id}/`).expect(200);
    expect(one.body.fields).toMatchObject({ name: 'Revision story', doc: doc('Version one.') });
    expect(one.body.body_html).toBe('<p>Version one.</p>');
    const restored = await api('writer').post(`stories/${s.id}/revisions/${first.id}/restore/`).expect(200);
    expect(restored.body.fields).toMatchObject({ name: 'Revision story', seo_title: '', doc: doc('Version one.') });
    expect(restored.body.version).toBeGreaterThan(v2.body.version);
  });

  test('preview links render the working copy with a banner and noindex until revoked', async () => {
    const s = await newStory('writer', 'Preview story', doc('Secret draft words.'));
    const link = await api('writer').post(`stories/${s.id}/previews/`).expect(201);
    const path = new URL(link.body.url).pathname;
    const page = await request(t.app).get(path).expect(200);
    expect(page.text).toContain('Secret draft words.');
    expect(page.text).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(page.text).toMatch(/class="preview-banner"/);
    expect(page.headers['cache-control']).toMatch(/private/);
    await api('writer').del(`stories/${s.id}/previews/${link.body.id}/`).expect(204);
    await request(t.app).get(path).expect(404);
    await request(t.app).get('/preview/not-a-real-token-at-all-000/').expect(404);
  });

  test('presence: each editor sees who else has the story open', async () => {
    const s = await newStory('editor', 'Presence story');
    expect((await api('editor').post(`stories/${s.id}/presence/`).expect(200)).body.others).toEqual([]);
    const seen = await api('administrator').post(`stories/${s.id}/presence/`).expect(200);
    expect(seen.body.others).toEqual([{ name: 'editor person', since: clock.toISOString() }]);
    await api('editor').del(`stories/${s.id}/presence/`).expect(204);
    expect((await api('administrator').post(`stories/${s.id}/presence/`).expect(200)).body.others).toEqual([]);
  });

  test('a picture pasted from another site is copied into the upload pipeline, or refused saying why', async () => {
    const png = await pngImage();
    const server = http.createServer((req, res) => {
      if (req.url === '/photo.png') res.writeHead(200, { 'Content-Type': 'image/png' }).end(png);
      else if (req.url === '/page.html') res.writeHead(200, { 'Content-Type': 'text/html' }).end('<p>hi</p>');
      else res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    try {
      const s = await newStory('writer', 'Pasted picture story');
      // The site itself and its networks are never fetched.
      const loop = await api('writer').post(`stories/${s.id}/fetch-image/`, { url: `http://127.0.0.1:${port}/photo.png` }).expect(400);
      expect(loop.body.url[0]).toMatch(/loopback/);
      const ftp = await api('writer').post(`stories/${s.id}/fetch-image/`, { url: 'ftp://example.com/a.png' }).expect(400);
      expect(ftp.body.url[0]).toMatch(/Only http and https/);
      await api('writer').post(`stories/${s.id}/fetch-image/`, { url: 'not a url' }).expect(400);
      // With loopback allowed (as the tests' own servers need): copied, or refused for what it is.
      const local = await memberAgent({ app: t.rebuild({}, { calendarFeeds: { ...t.config.calendarFeeds, allowLoopback: true } }), ctx: t.ctx }, members.writer!);
      const copy = (url: string) => local.post(`/api/v2/staff/stories/${s.id}/fetch-image/`).set('X-CSRFToken', local.csrfToken).send({ url });
      const ok = await copy(`http://127.0.0.1:${port}/photo.png`).expect(201);
      expect(ok.body.key).toMatch(/^stories\/pasted\/.+\.png$/);
      expect(await t.ctx.storage.get(ok.body.key)).toBeTruthy();
      expect((await copy(`http://127.0.0.1:${port}/page.html`).expect(400)).body.url[0]).toMatch(/not a picture/);
      expect((await copy(`http://127.0.0.1:${port}/missing.png`).expect(400)).body.url[0]).toMatch(/answered 404/);
    } finally {
      server.close();
    }
  });

  test('the list filters by status and finds by headline; type-aheads answer stories and places', async () => {
    const s = await newStory('writer', 'Findable cheese story');
    await api('writer').post(`stories/${s.id}/publish/`).expect(200);
    const found = await api('editor').get('stories/?q=cheese').expect(200);
    expect(found.body.results.map((r: { fields: { name: string } }) => r.fields.name)).toEqual(['Findable cheese story']);
    const drafts = await api('editor').get('stories/?status=draft&limit=100').expect(200);
    expect(drafts.body.results.every((r: { status: string }) => r.status === 'draft')).toBe(true);
    await api('editor').get('stories/?status=bogus').expect(400);
    const links = await api('editor').get('link-targets/?q=cheese').expect(200);
    expect(links.body[0]).toMatchObject({ kind: 'story', label: 'Findable cheese story' });
    await api('editor').get('card-targets/?kind=nope&q=x').expect(400);
  });

  test('a preview has no bookmark control (nothing to bookmark yet); the public page has it', async () => {
    const s = await newStory('writer', 'Bookmark story', doc('Words to keep.'));
    const published = await api('editor').post(`stories/${s.id}/publish/`).expect(200);
    const link = await api('writer').post(`stories/${s.id}/previews/`).expect(201);
    const preview = await agents.writer!.get(new URL(link.body.url).pathname).expect(200);
    expect(preview.text).toContain('Words to keep.');
    expect(preview.text).not.toContain('data-save="article"');
    expect(preview.text).not.toContain('Log in to bookmark');
    const page = await request(t.app).get(published.body.path).expect(200);
    expect(page.text).toContain('data-save="article"');
  });

  test('a NUL in a story field is a 400 naming that field, not "fields", and nothing is saved', async () => {
    const s = await newStory('writer', 'NUL story');
    const nul = 'Null characters are not allowed.';
    const named = await api('writer').patch(`stories/${s.id}/`, { base_version: s.version, fields: { name: 'Bad\u0000name', excerpt: 'Fine' } }).expect(400);
    expect(named.body).toEqual({ name: [nul] });
    const inBody = await api('writer').post('stories/', { fields: { name: 'New', type_id: typeId, doc: doc('Bad\u0000body') } }).expect(400);
    expect(inBody.body).toEqual({ doc: [nul] });
    expect((await api('writer').get(`stories/${s.id}/`).expect(200)).body.fields).toMatchObject({ name: 'NUL story', excerpt: 'A dek.' });
  });
});
