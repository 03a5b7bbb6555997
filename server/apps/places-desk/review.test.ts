import request from 'supertest';
import { createMember, createTestContext, guestAgent, memberAgent, type Agent, type MemberFixture, type TestContext } from '../../testing/test-app';
import { createArticle, createListing, createListingType } from '../../testing/fixtures';
import { mainOf } from '../../testing/html-test-helpers';
import { recentStaffActions } from '../staff-audit/audit-log-queries';
import { placeRevisions } from './revision-queries';
import { reviewSummary } from './review-queries';
import { asParsed, executableMarkupProblems, pageBaseline, parsePage, payloadDocPlaces, XSS_PAYLOADS } from '../newsroom/test-xss-corpus';
import type { StoryDoc, StoryNode } from '../../../shared/newsroom';

// A place's review (issue 39), in the real app: staff write it at /staff/places/{id}/review/
// with a byline, and publish or unpublish it; each save is a revision and an audit entry with
// the change; a published review is on the place's page ("Review by … · date", JSON-LD Review),
// in the navbar's RECENT REVIEWS (merged by date with the food stories) and behind the maps'
// "View Review" (the DTO's review_url); unpublishing takes it out of all three. The review is a
// document in the story schema (the editor island posts it as review_doc; without JavaScript the
// textarea's paragraphs become one), rendered by the stories' renderer; a form made on a review
// someone has saved since is refused 409 with what was typed kept.

const NOW = new Date('2026-11-29T17:00:00Z'); // noon in Toronto

describe("a place's review", () => {
  let t: TestContext;
  let staff: MemberFixture;
  let editor: Agent;
  let typeId: number;
  let n = 0;
  let clock = NOW;

  beforeAll(async () => {
    t = await createTestContext();
    t.ctx.now = () => clock;
    t.app = t.rebuild();
    staff = await createMember(t.ctx, { is_staff: true, full_name: 'Sam Editor' });
    editor = await memberAgent(t, staff);
    typeId = await createListingType(t.ctx.db, { name: 'Restaurants', slug: 'restaurants' });
  });
  afterAll(() => t.close());

  async function place(fields: { description?: string } = {}) {
    n += 1;
    const name = `Review Diner ${n}`;
    const id = await createListing(t.ctx.db, { name, type_id: typeId, description: fields.description ?? 'The seed says it is a diner.' });
    return { id, name, path: `/restaurants/review-diner-${n}-${id}/` };
  }

  const reviewUrl = (id: number) => `/staff/places/${id}/review/`;
  const post = (id: number, fields: Record<string, string>) => editor.post(reviewUrl(id)).type('form').send({ csrfmiddlewaretoken: editor.csrfToken, ...fields });
  const row = (id: number) => t.ctx.db('listings').where({ id }).first('review', 'review_doc', 'review_byline', 'review_author_id', 'review_published_at', 'description');
  const auditOf = (id: number) => recentStaffActions(t.ctx.db, { subjectType: 'listing', subjectId: id });
  /** The RECENT REVIEWS submenu's links in a page's server-rendered navbar (the Restaurants menu's). */
  const recentReviews = (html: string): Array<{ path: string; name: string }> => {
    const at = html.indexOf('RECENT REVIEWS</p>');
    if (at === -1) return [];
    const list = html.slice(at, html.indexOf('</ul>', at));
    return [...list.matchAll(/<a href="([^"]+)">([^<]*)<\/a>/g)].map((m) => ({ path: m[1], name: m[2] }));
  };
  const dtoOf = async (id: number) => (await request(t.app).get(`/api/v2/listings/${id}/`).expect(200)).body as { review_url: string | null; share_url: string };

  test('staff only: a guest goes to the login page, a member who is not staff gets a 403, a place that is not there a 404', async () => {
    const { id } = await place();
    const guest = guestAgent(t.app);
    const res = await guest.get(reviewUrl(id)).expect(302);
    expect(res.headers.location).toBe(`/accounts/login?next=${encodeURIComponent(reviewUrl(id))}`);
    const member = await memberAgent(t, await createMember(t.ctx));
    await member.get(reviewUrl(id)).expect(403);
    await member.post(reviewUrl(id)).type('form').send({ csrfmiddlewaretoken: member.csrfToken, review: 'Mine now.', byline: 'Not staff', publish: 'yes' }).expect(403);
    expect((await row(id)).review).toBe('');
    await editor.get(reviewUrl(999_999)).expect(404);
    await post(999_999, { review: 'Nothing here.', byline: 'Sam Editor', publish: 'yes' }).expect(404);
  });

  test('the form starts from the description, with the staff member\'s name as the byline', async () => {
    const { id, name } = await place({ description: 'Pancakes & <b>eggs</b> all day.' });
    const res = await editor.get(reviewUrl(id)).expect(200);
    expect(res.headers['cache-control']).toMatch(/private|no-store/);
    const html = mainOf(res.text);
    expect(html).toContain(`Review of ${name}`);
    expect(html).toContain('>Pancakes &amp; &lt;b&gt;eggs&lt;/b&gt; all day.</textarea>');
    expect(html).toContain('name="byline" type="text" maxlength="120" required value="Sam Editor"');
    expect(html).toContain('data-review-state="none"');
    expect(html).toContain('>Publish</button>');
  });

  test('a refused form is a 400 naming its field, keeps what was typed and saves nothing', async () => {
    const { id } = await place();
    let res = await post(id, { review: 'Great <pie>.', byline: '  ', publish: 'yes' }).expect(400);
    let html = mainOf(res.text);
    expect(html).toContain('data-field-error="byline"');
    expect(html).toContain('Give the name readers see as the review&#39;s author.');
    expect(html).toContain('>Great &lt;pie&gt;.</textarea>');

    res = await post(id, { review: '   ', byline: 'Sam Editor', publish: 'yes' }).expect(400);
    html = mainOf(res.text);
    expect(html).toContain('data-field-error="review"');
    expect(html).toContain('Write the review before publishing it.');

    res = await post(id, { review: 'x'.repeat(20_001), byline: 'Sam Editor', publish: 'no' }).expect(400);
    expect(mainOf(res.text)).toContain('Ensure this field has no more than 20,000 characters.');

    res = await post(id, { review: 'Fine.', byline: 'Sam Editor', publish: 'maybe' }).expect(400);
    expect(mainOf(res.text)).toContain('data-field-error="publish"');

    expect(await row(id)).toMatchObject({ review: '', review_byline: '', review_published_at: null });
    expect(await placeRevisions(t.ctx.db, id, { limit: 10, offset: 0 })).toEqual([]);
    expect(await auditOf(id)).toEqual([]);
  });

  test('publishing: a revision and the audit; the page shows it escaped, with its byline, date and JSON-LD; RECENT REVIEWS and "View Review" point to it', async () => {
    const db = t.ctx.db;
    const { id, name, path } = await place();
    // Food stories either side of the review's publishing (NOW): the menu merges them by date.
    await createArticle(db, { type_slug: 'food', name: 'Older food story', date_published: new Date('2026-11-28T12:00:00Z') });
    await createArticle(db, { type_slug: 'food', name: 'Newer food story', date_published: new Date('2026-11-29T17:30:00Z') });
    // Warm the navbar's cache: publishing must drop it.
    const before = await request(t.app).get('/').expect(200);
    expect(recentReviews(before.text).map((l) => l.name)).not.toContain(name);
    expect((await dtoOf(id)).review_url).toBeNull();

    const review = 'First paragraph, with <script>alert(1)</script> & more.\r\n\r\nSecond paragraph.';
    const res = await post(id, { review, byline: 'Sam Editor', publish: 'yes' }).expect(303);
    expect(res.headers.location).toBe(`${reviewUrl(id)}?done=published`);

    const saved = await row(id);
    expect(saved).toMatchObject({ review: 'First paragraph, with <script>alert(1)</script> & more.\n\nSecond paragraph.', review_byline: 'Sam Editor', review_author_id: staff.id });
    expect(new Date(saved.review_published_at).toISOString()).toBe(NOW.toISOString());
    expect(saved.description).toBe('The seed says it is a diner.');

    const [revision] = await placeRevisions(db, id, { limit: 10, offset: 0 });
    expect(revision).toMatchObject({ kind: 'edit', staff_id: staff.id, summary: `review written (${saved.review.length} characters); byline Sam Editor; review published` });
    expect(revision.changes).toEqual({ review: { from: '', to: saved.review }, byline: { from: '', to: 'Sam Editor' }, review_published: { from: false, to: true } });
    const audit = await auditOf(id);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: 'place.review_publish', staff_id: staff.id, note: revision.summary });
    expect(audit[0].detail).toMatchObject({ revision_id: revision.id, characters: saved.review.length });

    const pageRes = await request(t.app).get(path).expect(200);
    const page = mainOf(pageRes.text);
    expect(page).toContain('<section class="section listing-review" id="review" aria-labelledby="review-title">');
    expect(page).toContain('Review by Sam Editor · <time datetime="2026-11-29T17:00:00.000Z">Nov 29, 2026</time>');
    // Without JavaScript the paragraphs became a document, rendered as stories are.
    expect(saved.review_doc).toEqual({ type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'First paragraph, with <script>alert(1)</script> & more.' }] }, { type: 'paragraph', content: [{ type: 'text', text: 'Second paragraph.' }] }] });
    expect(page).toContain('<div class="listing-review__body"><p>First paragraph, with &lt;script&gt;alert(1)&lt;/script&gt; &amp; more.</p>\n<p>Second paragraph.</p></div>');
    expect(page).not.toContain('The seed says it is a diner.');
    expect(pageRes.text).not.toContain('<script>alert(1)');
    const ld = [...pageRes.text.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]) as Record<string, unknown>);
    const business = ld.find((d) => d['@type'] === 'Restaurant');
    expect(business?.review).toEqual({
      '@type': 'Review',
      url: `${t.config.site.url}${path}#review`,
      author: { '@type': 'Person', name: 'Sam Editor' },
      datePublished: '2026-11-29',
      reviewBody: saved.review,
    });

    // RECENT REVIEWS, an hour later: the review among the food stories, newest first.
    clock = new Date(NOW.getTime() + 3_600_000);
    const after = await request(t.app).get('/').expect(200);
    clock = NOW;
    const names = recentReviews(after.text).map((l) => l.name);
    expect(names.indexOf('Newer food story')).toBeLessThan(names.indexOf(name));
    expect(names.indexOf(name)).toBeLessThan(names.indexOf('Older food story'));
    expect(recentReviews(after.text).find((l) => l.name === name)?.path).toBe(`${path}#review`);

    // The maps' popups read the DTO: "View Review" opens the review.
    expect((await dtoOf(id)).review_url).toBe(`${t.config.site.url}${path}#review`);

    const form = mainOf((await editor.get(`${reviewUrl(id)}?done=published`).expect(200)).text);
    expect(form).toContain('Published: the review is on the place&#39;s page and in RECENT REVIEWS.');
    expect(form).toContain('data-review-state="published"');
  });

  test('editing says how the length changed and keeps the first publishing date; saving nothing new writes nothing; unpublishing takes it off the page, the menu and the maps', async () => {
    const db = t.ctx.db;
    const { id, name, path } = await place();
    await post(id, { review: 'a'.repeat(1204), byline: 'Sam Editor', publish: 'yes' }).expect(303);
    const published = (await row(id)).review_published_at;

    clock = new Date(NOW.getTime() + 3_600_000);
    try {
      await post(id, { review: 'b'.repeat(1380), byline: 'Pat Critic', publish: 'yes' }).expect(303);
      const [edit] = await placeRevisions(db, id, { limit: 1, offset: 0 });
      expect(edit.summary).toBe('review edited (1,204 → 1,380 characters); byline Sam Editor → Pat Critic');
      expect((await row(id)).review_published_at).toEqual(published);
      expect((await auditOf(id))[0].action).toBe('place.review_edit');

      const again = await post(id, { review: 'b'.repeat(1380), byline: 'Pat Critic', publish: 'yes' }).expect(303);
      expect(again.headers.location).toBe(`${reviewUrl(id)}?done=unchanged`);
      expect(await placeRevisions(db, id, { limit: 10, offset: 0 })).toHaveLength(2);

      await request(t.app).get('/').expect(200); // the menu cached with the review in it
      const off = await post(id, { review: 'b'.repeat(1380), byline: 'Pat Critic', publish: 'no' }).expect(303);
      expect(off.headers.location).toBe(`${reviewUrl(id)}?done=unpublished`);
      const [unpublish] = await placeRevisions(db, id, { limit: 1, offset: 0 });
      expect(unpublish.summary).toBe('review unpublished');
      expect((await auditOf(id))[0].action).toBe('place.review_unpublish');
      expect(await row(id)).toMatchObject({ review: 'b'.repeat(1380), review_published_at: null });

      const page = mainOf((await request(t.app).get(path).expect(200)).text);
      expect(page).not.toContain('id="review"');
      expect(page).toContain('The seed says it is a diner.');
      expect(recentReviews((await request(t.app).get('/').expect(200)).text).map((l) => l.name)).not.toContain(name);
      expect((await dtoOf(id)).review_url).toBeNull();
      // The draft stays for staff, and says so.
      const form = mainOf((await editor.get(reviewUrl(id)).expect(200)).text);
      expect(form).toContain('data-review-state="draft"');
      expect(form).toContain(`>${'b'.repeat(1380)}</textarea>`);
      expect(form).toContain('value="Pat Critic"');
    } finally {
      clock = NOW;
    }
  });

  // --- the review in the editor (review_doc) -------------------------------------------------
  const text = (t: string, marks?: StoryNode['marks']): StoryNode => (marks ? { type: 'text', text: t, marks } : { type: 'text', text: t });
  const para = (...content: StoryNode[]): StoryNode => ({ type: 'paragraph', content });
  const docOf = (...content: StoryNode[]): StoryDoc => ({ type: 'doc', content });
  const versionIn = (html: string) => /name="review_version" value="([^"]*)"/.exec(html)?.[1] ?? '';
  const islandState = (html: string) => (JSON.parse(/<script id="initial-state" type="application\/json">([\s\S]*?)<\/script>/.exec(html)![1]) as Record<string, unknown>)['review-editor'] as { placeId: number; doc: StoryDoc | null; version: string };
  const revisionsOf = (id: number) => placeRevisions(t.ctx.db, id, { limit: 10, offset: 0 });

  test('a review written in the editor is saved as its document and shown formatted on the place\'s page; its words are the review\'s text', async () => {
    const { id, path } = await place();
    const form = await editor.get(reviewUrl(id)).expect(200);
    // The editor island over the textarea; the hidden document field is empty, so a form posted without it sends none.
    expect(form.text).toContain('data-island="review-editor"');
    expect(mainOf(form.text)).toContain('<input type="hidden" name="review_doc" value="">');
    expect(islandState(form.text)).toEqual({ placeId: id, doc: null, version: versionIn(form.text) });

    const doc = docOf(
      { type: 'heading', attrs: { level: 2 }, content: [text('Tasting notes')] },
      para(text('The '), text('peameal', [{ type: 'bold' }]), text(' is '), text('perfect', [{ type: 'italic' }]), text(', says '), text('our guide', [{ type: 'link', attrs: { href: '/guides/breakfast/' } }]), text('.')),
      { type: 'bulletList', content: [{ type: 'listItem', content: [para(text('Open early'))] }, { type: 'listItem', content: [para(text('Cash only'))] }] },
    );
    await post(id, { review: 'ignored when a document comes', review_doc: JSON.stringify(doc), review_version: versionIn(form.text), byline: 'Sam Editor', publish: 'yes' }).expect(303);
    const saved = await row(id);
    expect(saved.review_doc).toEqual(doc);
    expect(saved.review).toBe('Tasting notes\n\nThe peameal is perfect, says our guide.\n\nOpen early\n\nCash only');

    const page = mainOf((await request(t.app).get(path).expect(200)).text);
    expect(page).toContain('<div class="listing-review__body"><h2>Tasting notes</h2>\n<p>The <strong>peameal</strong> is <em>perfect</em>, says <a href="/guides/breakfast/">our guide</a>.</p>\n<ul><li><p>Open early</p></li><li><p>Cash only</p></li></ul></div>');

    // The form again: the editor starts from the saved document; the textarea holds its words.
    const again = await editor.get(reviewUrl(id)).expect(200);
    expect(islandState(again.text).doc).toEqual(doc);
    expect(mainOf(again.text)).toContain('>Tasting notes\n\nThe peameal is perfect, says our guide.\n\nOpen early\n\nCash only</textarea>');

    // Only the formatting changed: a revision says so; the same document again changes nothing.
    const bolder = structuredClone(doc);
    bolder.content[1].content![3] = text('perfect', [{ type: 'bold' }, { type: 'italic' }]);
    await post(id, { review_doc: JSON.stringify(bolder), review_version: versionIn(again.text), byline: 'Sam Editor', publish: 'yes' }).expect(303);
    const [formatting] = await revisionsOf(id);
    expect(formatting.summary).toBe('review formatting edited');
    const third = await editor.get(reviewUrl(id)).expect(200);
    const same = await post(id, { review_doc: JSON.stringify(bolder), review_version: versionIn(third.text), byline: 'Sam Editor', publish: 'yes' }).expect(303);
    expect(same.headers.location).toBe(`${reviewUrl(id)}?done=unchanged`);
  });

  test('a document outside the story schema is a 400 naming the review, keeps what was typed and saves nothing', async () => {
    const { id } = await place();
    const bad: Array<[string, string, RegExp]> = [
      ['not JSON', '{"type":"doc",', /its document is not valid/],
      ['not a document', JSON.stringify({ type: 'paragraph' }), /The review must be a story document/],
      ['an unknown node', JSON.stringify(docOf({ type: 'script', content: [text('alert(1)')] } as StoryNode)), /Unknown node “script” at review\.content\[0\]/],
      ['a script address', JSON.stringify(docOf(para(text('click', [{ type: 'link', attrs: { href: 'javascript:alert(1)' } }])))), /“href” must be a web address/],
      ['an unknown mark', JSON.stringify(docOf(para(text('big', [{ type: 'fontSize', attrs: { size: 99 } }])))), /Unknown mark “fontSize”/],
      ['a raw HTML attribute', JSON.stringify(docOf({ type: 'paragraph', attrs: { onclick: 'alert(1)' }, content: [text('x')] })), /Unknown attribute “onclick”/],
    ];
    for (const [what, json, message] of bad) {
      const res = await post(id, { review: 'What I typed.', review_doc: json, byline: 'Sam Editor', publish: 'yes' });
      const html = mainOf(res.text);
      expect({ what, status: res.status }).toEqual({ what, status: 400 });
      expect(html).toContain('data-field-error="review"');
      expect(html).toMatch(message);
      expect(html).toContain('>What I typed.</textarea>');
    }
    expect(await row(id)).toMatchObject({ review: '', review_doc: null, review_published_at: null });
    expect(await revisionsOf(id)).toEqual([]);
    expect(await auditOf(id)).toEqual([]);
  });

  test('a review saved as plain text before the editor still shows as paragraphs, and the editor starts from its words', async () => {
    const { id, path } = await place();
    await t.ctx.db('listings').where({ id }).update({ review: 'Old <b>plain</b> one.\n\nSecond.', review_byline: 'Old Hand', review_published_at: NOW });
    const page = mainOf((await request(t.app).get(path).expect(200)).text);
    expect(page).toContain('<p>Old &lt;b&gt;plain&lt;/b&gt; one.</p><p>Second.</p>');
    const form = await editor.get(reviewUrl(id)).expect(200);
    expect(islandState(form.text).doc).toBeNull();
    // The editor posts the same paragraphs back: nothing changed.
    const same = docOf(para(text('Old <b>plain</b> one.')), para(text('Second.')));
    const res = await post(id, { review_doc: JSON.stringify(same), review_version: versionIn(form.text), byline: 'Old Hand', publish: 'yes' }).expect(303);
    expect(res.headers.location).toBe(`${reviewUrl(id)}?done=unchanged`);
    // Without JavaScript a single line break stays one.
    await post(id, { review: 'Line one\r\nline two\r\n\r\nNext.', review_version: versionIn(form.text), byline: 'Old Hand', publish: 'yes' }).expect(303);
    expect((await row(id)).review_doc).toEqual(docOf(para(text('Line one'), { type: 'hardBreak' }, text('line two')), para(text('Next.'))));
    expect(mainOf((await request(t.app).get(path).expect(200)).text)).toContain('<p>Line one<br>line two</p>\n<p>Next.</p>');
  });

  test('two editors: a form made on a review someone has saved since is refused 409, keeping what was typed; saving again replaces theirs knowingly', async () => {
    const { id } = await place();
    const pat = await createMember(t.ctx, { is_staff: true, full_name: 'Pat Critic' });
    const other = await memberAgent(t, pat);
    const mine = await editor.get(reviewUrl(id)).expect(200);
    const theirs = await other.get(reviewUrl(id)).expect(200);
    const v0 = versionIn(mine.text);
    expect(v0).toMatch(/^[0-9a-f]{16}$/);
    expect(versionIn(theirs.text)).toBe(v0);

    await other.post(reviewUrl(id)).type('form').send({ csrfmiddlewaretoken: other.csrfToken, review: 'Pat was here first.', review_version: v0, byline: 'Pat Critic', publish: 'no' }).expect(303);

    const typed = docOf(para(text('My '), text('careful', [{ type: 'bold' }]), text(' review.')));
    const res = await post(id, { review: 'My careful review.', review_doc: JSON.stringify(typed), review_version: v0, byline: 'Sam Editor', publish: 'yes' }).expect(409);
    const html = mainOf(res.text);
    expect(html).toContain('Pat Critic saved this review after you opened it. Nothing of yours was saved');
    expect(html).toContain('data-field-error="review"');
    // What was typed is on the page (the textarea and the editor's document); theirs beside it.
    expect(html).toContain('>My careful review.</textarea>');
    expect(islandState(res.text).doc).toEqual(typed);
    expect(html).toContain('<p>Pat was here first.</p>');
    expect(await row(id)).toMatchObject({ review: 'Pat was here first.', review_published_at: null });

    // The form now carries their version: saving again replaces theirs.
    const v1 = versionIn(res.text);
    expect(v1).not.toBe(v0);
    expect(islandState(res.text).version).toBe(v1);
    await post(id, { review: 'My careful review.', review_doc: JSON.stringify(typed), review_version: v1, byline: 'Sam Editor', publish: 'yes' }).expect(303);
    expect(await row(id)).toMatchObject({ review: 'My careful review.', review_doc: typed });
    // Saving the place's other details does not move the review's version.
    const vNow = versionIn((await editor.get(reviewUrl(id)).expect(200)).text);
    await t.ctx.db('listings').where({ id }).update({ phone: '416-555-0199', date_modified: new Date() });
    expect(versionIn((await editor.get(reviewUrl(id)).expect(200)).text)).toBe(vNow);
  });

  test('the XSS corpus in a review: refused where the schema checks it, else saved and shown as text, never as markup', async () => {
    const { id, path } = await place();
    const refs = { placeId: id };
    const PLACES = ['text', 'bold italic text', 'heading', 'list item', 'quote', 'link text', 'link title', 'link href'];
    const placesOf = (payload: string) => payloadDocPlaces(payload, refs).filter((pl) => PLACES.includes(pl.place));
    const intro = para(text('An ordinary first paragraph.'));
    const save = (nodes: StoryNode[]) => post(id, { review_doc: JSON.stringify(docOf(intro, ...nodes)), byline: 'Sam Editor', publish: 'yes' });

    // The page with safe words everywhere a payload goes: what every payload's page is compared with.
    await save(placesOf('Safe words').flatMap((pl) => (pl.place === 'link href' ? [para(text('payload link', [{ type: 'link', attrs: { href: 'https://example.com/safe' } }]))] : pl.nodes))).expect(303);
    const baseline = pageBaseline((await request(t.app).get(path).expect(200)).text);

    // A sample of the corpus: scripts, closing what a review is printed in, event handlers, script
    // and protocol-relative addresses, mutation XSS and template syntax (the whole corpus runs
    // through the newsroom's own tests, server/apps/newsroom/xss.test.ts).
    const SAMPLE = ['script-in-text', 'close-textarea', 'close-comment', 'nul-script', 'img-onerror', 'attr-breakout-dq', 'js-url-entity-tab', 'js-url-newline', 'data-url', 'protocol-relative', 'backslash-path', 'noscript-mxss', 'nunjucks-raw'];
    const payloads = XSS_PAYLOADS.filter((x) => SAMPLE.includes(x.id) && !x.knownIssue);
    expect(payloads.map((x) => x.id).sort()).toEqual([...SAMPLE].sort());
    let shownCount = 0;
    for (const { id: name, payload } of payloads) {
      const accepted: StoryNode[] = [];
      for (const pl of placesOf(payload)) {
        if (!pl.checked) {
          accepted.push(...pl.nodes);
          continue;
        }
        // A checked place (a link's address) on its own: saved if the schema takes it, else a 400 naming the review.
        const one = await save(pl.nodes);
        expect({ name, status: [303, 400].includes(one.status) }).toEqual({ name, status: true });
        if (one.status === 400) expect(mainOf(one.text)).toContain('data-field-error="review"');
        else accepted.push(...pl.nodes);
      }
      const saved = await save(accepted);
      // A NUL is refused by the app before any form reads it (server/http/null-characters.ts): nothing saved.
      if (payload.includes('\u0000')) {
        expect({ name, status: saved.status }).toEqual({ name, status: 400 });
        expect((await row(id)).review).not.toContain('\u0000');
        continue;
      }
      expect({ name, status: saved.status }).toEqual({ name, status: 303 });
      shownCount += 1;
      const html = (await request(t.app).get(path).expect(200)).text;
      const problems = executableMarkupProblems(html, baseline);
      // Links in the review that do not say they lead elsewhere stay on this site.
      const doc = parsePage(html);
      const body = doc.querySelector('.listing-review__body')!;
      for (const a of body.querySelectorAll('a[href]')) {
        const href = new URL(a.getAttribute('href') ?? '', 'http://127.0.0.1/');
        if (!['http:', 'https:', 'mailto:'].includes(href.protocol)) problems.push(`a link to ${href.protocol}`);
        if (!a.getAttribute('rel') && href.origin !== 'http://127.0.0.1') problems.push(`a link without rel to ${href.origin}`);
      }
      expect({ name, problems }).toEqual({ name, problems: [] });
      // The payload is shown as text: a paragraph, a heading, a list item holding it and nothing else.
      const shown = asParsed(payload);
      const asText = (sel: string) => [...body.querySelectorAll(sel)].some((el) => el.children.length === 0 && asParsed(el.textContent ?? '') === shown);
      expect({ name, p: asText('p'), h2: asText('h2'), li: asText('li p'), strong: asText('em strong') }).toEqual({ name, p: true, h2: true, li: true, strong: true });
    }
    expect(shownCount).toBe(payloads.length - 1);
  });

  test('the revision line', () => {
    expect(reviewSummary({ review: 'abc', byline: 'A', published: true }, { review: 'abcd', byline: 'A', published: true })).toBe('review edited (3 → 4 characters)');
    expect(reviewSummary({ review: 'abc', byline: 'A', published: false }, { review: 'abc', byline: 'A', published: true })).toBe('review published');
  });
});
