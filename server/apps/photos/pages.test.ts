import request from 'supertest';
import { createTestContext, guestAgent, memberAgent, createMember, type TestContext } from '../../testing/test-app';
import { createListing, createListingType, createPhoto } from '../../testing/fixtures';

describe('listing photo pages', () => {
  let t: TestContext;
  let listingId: number;
  let emptyId: number;
  const photoIds: number[] = []; // newest first

  beforeAll(async () => {
    t = await createTestContext();
    const db = t.ctx.db;
    const typeId = await createListingType(db, { name: 'Cafes', slug: 'cafes' });
    listingId = await createListing(db, { name: 'Pilot Coffee', type_id: typeId });
    emptyId = await createListing(db, { name: 'Quiet Cafe', type_id: typeId });
    // 26 photos, one a minute; the newest (index 0 below) is the first in the list.
    const ids: number[] = [];
    for (let i = 0; i < 26; i++) {
      ids.push(await createPhoto(db, { listing_id: listingId, title: i === 25 ? 'Latte <script>x</script>' : `Cup ${i}`, creation_date: new Date(Date.UTC(2026, 0, 1, 0, i)) }));
    }
    photoIds.push(...ids.reverse());
  });
  afterAll(() => t.close());

  const base = () => `/cafes/pilot-coffee-${listingId}/photos/`;

  test('the photo list shows 24 photos a page, newest first, with Upload Photo and the viewer mount point', async () => {
    const res = await request(t.app).get(base());
    expect(res.status).toBe(200);
    expect(res.text).toContain('<h1 class="page-header__title">Photos of Pilot Coffee</h1>');
    expect(res.text.match(/<li><a href="\/cafes\/pilot-coffee-\d+\/photos\/\d+\/">/g)).toHaveLength(24);
    expect(res.text.indexOf(`photos/${photoIds[0]}/`)).toBeLessThan(res.text.indexOf(`photos/${photoIds[1]}/`));
    expect(res.text).toContain('alt="Latte &lt;script&gt;x&lt;/script&gt;"');
    expect(res.text).toContain('>Upload Photo</a>');
    expect(res.text).toContain('<div data-island="photo-viewer" id="photo-viewer">');
    const two = await request(t.app).get(`${base()}?page=2`);
    expect(two.text.match(/<li><a href="\/cafes\/pilot-coffee-\d+\/photos\/\d+\/">/g)).toHaveLength(2);
    const past = await request(t.app).get(`${base()}?page=3`);
    expect([past.status, past.headers.location]).toEqual([302, base()]);
  });

  test("the photo viewer's state: the printed page's photos at their place in the whole list, with the API's page size", async () => {
    const stateOf = (html: string) => JSON.parse(/<script id="initial-state" type="application\/json">([\s\S]*?)<\/script>/.exec(html)![1]);
    const two = stateOf((await request(t.app).get(`${base()}?page=2`)).text)['photo-viewer'];
    expect(two).toMatchObject({ listing: { id: listingId, name: 'Pilot Coffee' }, offset: 24, count: 26, pageSize: 24, layout: 'grid' });
    expect(two.photos.map((p: { id: number }) => p.id)).toEqual(photoIds.slice(24));
    expect(two.photos[0]).toMatchObject({ share_path: `${base()}${photoIds[24]}/`, alt: 'Cup 1', credit: null, image_url: expect.stringMatching(/\?w=1080&cmd=fit$/) });
    const listing = stateOf((await request(t.app).get(`/cafes/pilot-coffee-${listingId}/`)).text)['photo-viewer'];
    expect(listing).toMatchObject({ offset: 0, count: 26, layout: 'strip' });
    expect(listing.photos.map((p: { id: number }) => p.id)).toEqual(photoIds.slice(0, 6));
    // No photos, no viewer.
    expect(stateOf((await request(t.app).get(`/cafes/quiet-cafe-${emptyId}/photos/`)).text)['photo-viewer']).toBeUndefined();
  });

  test('without the upload flag there is no Upload Photo control; the list is the same for everybody; ?upload=1 sends a guest to log in first', async () => {
    const off = t.rebuild({ FEATURE_PHOTO_UPLOAD: 'false' });
    expect((await request(off).get(base())).text).not.toContain('Upload Photo');
    expect((await request(off).get(`${base()}?upload=1`)).status).toBe(200);
    const member = await memberAgent(t, await createMember(t.ctx));
    const guestList = await guestAgent(t.app).get(base());
    const memberList = await member.get(base());
    expect(guestList.text).toContain('data-photo-upload href="?upload=1"');
    expect(memberList.text).toBe(guestList.text);
    expect(memberList.headers['cache-control']).not.toMatch(/no-store/);

    const guest = await request(t.app).get(`${base()}?upload=1`);
    expect(guest.status).toBe(302);
    expect(guest.headers.location).toBe(`/accounts/login?next=${encodeURIComponent(`${base()}?upload=1`)}`);
    const uploading = await member.get(`${base()}?upload=1`);
    expect(uploading.status).toBe(200);
    expect(uploading.headers['cache-control']).toBe('private, no-store');
    const state = JSON.parse(/<script id="initial-state" type="application\/json">([\s\S]*?)<\/script>/.exec(uploading.text)![1]);
    expect(state['photo-uploader']).toMatchObject({ listing: { id: listingId }, upload: true });
  });

  test('the list an uploader returns to (?added=<photo id>) is the list itself, shareable, its canonical link the plain list', async () => {
    const plain = await request(t.app).get(base());
    const added = await request(t.app).get(`${base()}?added=${photoIds[0]}`);
    expect(added.status).toBe(200);
    expect(added.headers['cache-control']).toBe(plain.headers['cache-control']);
    expect(added.text).toContain(`<link rel="canonical" href="${t.ctx.config.site.url}${base()}">`);
    expect(added.text).toContain(`href="${base()}${photoIds[0]}/"`);
  });

  test("a photo page says 'N of M'; previous is hidden on the first and next on the last", async () => {
    const first = await request(t.app).get(`${base()}${photoIds[0]}/`);
    expect(first.status).toBe(200);
    expect(first.text).toContain('>1 of 26</p>');
    expect(first.text).not.toContain('data-photo-prev');
    expect(first.text).toContain(`href="${base()}${photoIds[1]}/" rel="next"`);
    expect(first.text).toContain('Latte &lt;script&gt;x&lt;/script&gt;</h1>');
    const middle = await request(t.app).get(`${base()}${photoIds[5]}/`);
    expect(middle.text).toContain('>6 of 26</p>');
    expect(middle.text).toContain(`href="${base()}${photoIds[4]}/" rel="prev"`);
    expect(middle.text).toContain(`href="${base()}${photoIds[6]}/" rel="next"`);
    const last = await request(t.app).get(`${base()}${photoIds[25]}/`);
    expect(last.text).toContain('>26 of 26</p>');
    expect(last.text).not.toContain('data-photo-next');
    expect(last.text).toContain(`href="${base()}?page=2" data-photo-close`);
  });

  test('stale slugs redirect; unknown listings, photos and photos of another listing are 404', async () => {
    const stale = await request(t.app).get(`/cafes/old-${listingId}/photos/${photoIds[0]}/`);
    expect(stale.status).toBe(301);
    expect(stale.headers.location).toBe(`${base()}${photoIds[0]}/`);
    for (const path of [`/cafes/quiet-cafe-${emptyId}/photos/${photoIds[0]}/`, `${base()}999999/`, `${base()}abc/`, '/cafes/nothing-999999/photos/']) {
      const res = await request(t.app).get(path);
      expect([path, res.status]).toEqual([path, 404]);
    }
    const empty = await request(t.app).get(`/cafes/quiet-cafe-${emptyId}/photos/`);
    expect(empty.status).toBe(200);
    expect(empty.text).toContain('No photos of Quiet Cafe yet.');
  });
});
