import request from 'supertest';
import { createMember, createTestContext, guestAgent, memberAgent, type Agent, type MemberFixture, type TestContext } from '../../testing/test-app';
import { createArticle, createListing, createListingType } from '../../testing/fixtures';
import { mainOf } from '../../testing/html-test-helpers';
import { recentStaffActions } from '../staff-audit/audit-log-queries';
import { placeRevisions } from './revision-queries';
import { reviewSummary } from './review-queries';

// A place's review (issue 39), in the real app: staff write it at /staff/places/{id}/review/
// with a byline, and publish or unpublish it; each save is a revision and an audit entry with
// the change; a published review is on the place's page ("Review by … · date", JSON-LD Review),
// in the navbar's RECENT REVIEWS (merged by date with the food stories) and behind the maps'
// "View Review" (the DTO's review_url); unpublishing takes it out of all three.

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
  const row = (id: number) => t.ctx.db('listings').where({ id }).first('review', 'review_byline', 'review_author_id', 'review_published_at', 'description');
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
    expect(page).toContain('<p>First paragraph, with &lt;script&gt;alert(1)&lt;/script&gt; &amp; more.</p><p>Second paragraph.</p>');
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

  test('the revision line', () => {
    expect(reviewSummary({ review: 'abc', byline: 'A', published: true }, { review: 'abcd', byline: 'A', published: true })).toBe('review edited (3 → 4 characters)');
    expect(reviewSummary({ review: 'abc', byline: 'A', published: false }, { review: 'abc', byline: 'A', published: true })).toBe('review published');
  });
});
