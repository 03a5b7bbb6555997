import request from 'supertest';
import { createMember, createTestContext, guestAgent, memberAgent, type Agent, type MemberFixture, type TestContext } from '../../testing/test-app';
import { pngImage } from '../media/test-images';
import { recentStaffActions } from '../staff-audit/audit-log-queries';
import { cityDay } from './ad-counter-queries';
import { pickByWeight } from './house-ad-queries';

// House ads end to end: the staff pages (staff only, CSRF-checked multipart form, 400 naming
// each bad field, the audit log), the two endpoints (serve counts an impression, click counts a
// click and redirects; neither sets a cookie), and the switches that print no slot at all.

const ADS_ON = { FEATURE_ADS: 'true' };

describe('house ads', () => {
  let t: TestContext;
  let staff: MemberFixture;
  let member: MemberFixture;
  let agent: Agent;
  let image: Buffer;
  let today: string;

  beforeAll(async () => {
    t = await createTestContext(ADS_ON);
    staff = await createMember(t.ctx, { is_staff: true, full_name: 'Ad Staff' });
    member = await createMember(t.ctx);
    agent = await memberAgent(t, staff);
    image = await pngImage(728, 90);
    today = cityDay(new Date(), t.ctx.config.city.timeZone);
  });
  afterAll(() => t.close());

  /** The staff form as a browser sends it: multipart, the CSRF token first. */
  function postForm(as: Agent, fields: Record<string, string>, withImage = true) {
    let req = as.post('/staff/ads/save/').field('csrfmiddlewaretoken', as.csrfToken);
    for (const [k, v] of Object.entries(fields)) req = req.field(k, v);
    if (withImage) req = req.attach('image', image, { filename: 'ad.png', contentType: 'image/png' });
    return req;
  }
  const valid = (over: Record<string, string> = {}) => ({
    name: 'Spring sale',
    slot: 'leaderboard',
    link_url: 'https://advertiser.example/spring',
    alt_text: 'Spring sale: everything half price',
    starts_on: today,
    ends_on: '',
    weight: '3',
    ...over,
  });
  const countsOf = async (adId: number) => (await t.ctx.db('house_ad_daily_counts').where({ ad_id: adId }).first()) ?? { impressions: 0, clicks: 0 };

  async function createAd(over: Record<string, string> = {}): Promise<number> {
    const res = await postForm(agent, valid(over));
    expect(res.status).toBe(303);
    return Number(/saved=(\d+)/.exec(res.headers.location)![1]);
  }

  test('guests are sent to log in and members get a 403 on every staff ad route', async () => {
    const guest = guestAgent(t.app);
    const res = await guest.get('/staff/ads/');
    expect([res.status, res.headers.location]).toEqual([302, '/accounts/login?next=%2Fstaff%2Fads%2F']);
    const plain = await memberAgent(t, member);
    expect((await plain.get('/staff/ads/')).status).toBe(403);
    expect((await plain.get('/staff/ads/new/')).status).toBe(403);
    expect((await postForm(plain, valid())).status).toBe(403);
    expect(Number((await t.ctx.db('house_ads').count({ n: '*' }).first())!.n)).toBe(0);
  });

  test('staff add an ad with its image through the upload pipeline, change it and remove it, each in the audit log', async () => {
    const list = await agent.get('/staff/ads/');
    expect(list.status).toBe(200);
    expect(list.text).toContain('href="/staff/ads/" aria-current="page"');
    expect((await agent.get('/staff/ads/new/')).text).toContain('enctype="multipart/form-data"');

    const id = await createAd();
    const row = await t.ctx.db('house_ads').where({ id }).first();
    expect(row).toMatchObject({ name: 'Spring sale', slot: 'leaderboard', link_url: 'https://advertiser.example/spring', weight: 3, ends_on: null });
    expect(row.image_key).toMatch(new RegExp(`^uploads/m${staff.id}/`));
    expect(await t.ctx.storage.get(row.image_key)).toBeTruthy();
    const shown = await agent.get('/staff/ads/');
    expect(shown.text).toContain('Spring sale');
    expect(shown.text).toContain(`/media/${row.image_key}`);

    // A change without a new file keeps the image.
    const edit = await postForm(agent, valid({ id: String(id), weight: '7', ends_on: '2099-12-31' }), false);
    expect(edit.status).toBe(303);
    expect(await t.ctx.db('house_ads').where({ id }).first()).toMatchObject({ weight: 7, image_key: row.image_key });
    expect((await agent.get(`/staff/ads/${id}/`)).text).toContain('value="2099-12-31"');

    const del = await agent.post(`/staff/ads/${id}/delete/`).type('form').send({ csrfmiddlewaretoken: agent.csrfToken });
    expect([del.status, del.headers.location]).toEqual([303, '/staff/ads/?deleted=1']);
    expect(await t.ctx.db('house_ads').where({ id }).first()).toBeUndefined();
    expect((await agent.post(`/staff/ads/${id}/delete/`).type('form').send({ csrfmiddlewaretoken: agent.csrfToken })).status).toBe(404);

    const log = await recentStaffActions(t.ctx.db, { subjectType: 'house_ad', subjectId: id });
    expect(log.map((e) => [e.action, e.staff_email])).toEqual([
      ['ad.delete', staff.email],
      ['ad.update', staff.email],
      ['ad.create', staff.email],
    ]);
  });

  test('bad input is a 400 page naming each field, and nothing is saved', async () => {
    const before = Number((await t.ctx.db('house_ads').count({ n: '*' }).first())!.n);
    const res = await postForm(agent, valid({ name: '', slot: 'popup', link_url: 'javascript:alert(1)', starts_on: '2026-02-30', weight: '0' }), false);
    expect(res.status).toBe(400);
    for (const field of ['name', 'slot', 'link_url', 'starts_on', 'weight', 'image']) expect(res.text).toContain(`data-field-error="${field}"`);
    expect(res.text).toContain('Enter a valid URL');

    const order = await postForm(agent, valid({ starts_on: '2026-05-10', ends_on: '2026-05-01' }));
    expect(order.status).toBe(400);
    expect(order.text).toContain('data-field-error="ends_on"');
    expect(order.text).not.toContain('data-field-error="image"');

    const bad = await postForm(agent, valid(), false).attach('image', Buffer.from('not a picture'), { filename: 'ad.png', contentType: 'image/png' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('data-field-error="image"');

    expect((await postForm(agent, valid({ id: '999999' }))).status).toBe(404);

    // A field sent as an object (name[b]=1) is a 400 naming it, not a 500.
    const { name: _name, ...rest } = valid();
    const shaped = await postForm(agent, { ...rest, 'name[b]': '1' });
    expect(shaped.status).toBe(400);
    expect(shaped.text).toContain('data-field-error="name"');
    expect(Number((await t.ctx.db('house_ads').count({ n: '*' }).first())!.n)).toBe(before);
  });

  test('the form is refused without its CSRF token, or with another', async () => {
    let noToken = agent.post('/staff/ads/save/');
    for (const [k, v] of Object.entries(valid())) noToken = noToken.field(k, v);
    expect((await noToken.attach('image', image, 'ad.png')).status).toBe(403);
    let wrong = agent.post('/staff/ads/save/').field('csrfmiddlewaretoken', 'x'.repeat(43));
    for (const [k, v] of Object.entries(valid())) wrong = wrong.field(k, v);
    expect((await wrong.attach('image', image, 'ad.png')).status).toBe(403);
  });

  test('serving a slot counts an impression, a click counts and redirects; no cookie is set or needed', async () => {
    const id = await createAd({ slot: 'sidebar', name: 'Sidebar ad', link_url: 'https://advertiser.example/side' });
    await createAd({ slot: 'sidebar', name: 'Not yet', starts_on: '2099-01-01' });
    await createAd({ slot: 'sidebar', name: 'Over', starts_on: '2020-01-01', ends_on: '2020-01-31' });

    const served = await request(t.app).get('/api/ads/serve/?slot=sidebar');
    expect(served.status).toBe(200);
    expect(served.headers['set-cookie']).toBeUndefined();
    expect(served.headers['cache-control']).toBe('no-store');
    expect(served.body).toEqual({ ad: { id, slot: 'sidebar', image_url: expect.stringMatching(/^\/media\/uploads\//), alt: 'Spring sale: everything half price', click_url: `/ads/${id}/click/` } });
    await request(t.app).get('/api/ads/serve/?slot=sidebar');
    expect(await countsOf(id)).toMatchObject({ impressions: 2, clicks: 0 });

    const click = await request(t.app).get(`/ads/${id}/click/`);
    expect([click.status, click.headers.location, click.headers['set-cookie']]).toEqual([302, 'https://advertiser.example/side', undefined]);
    expect(await countsOf(id)).toMatchObject({ impressions: 2, clicks: 1, day: expect.anything() });

    expect((await request(t.app).get('/api/ads/serve/?slot=in-feed')).body).toEqual({ ad: null });
    const bad = await request(t.app).get('/api/ads/serve/?slot=popup');
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body)).toEqual(['slot']);
    expect((await request(t.app).get('/api/ads/serve/')).body).toEqual({ slot: ['This field is required.'] });
    expect((await request(t.app).get('/ads/999999/click/')).status).toBe(404);
    expect((await request(t.app).get('/ads/abc/click/')).status).toBe(404);
  });

  test('a weight of 3 shows about three times as often as a weight of 1', async () => {
    const ads = [{ id: 1, weight: 3 }, { id: 2, weight: 1 }];
    expect([0, 0.5, 0.74, 0.75, 0.99].map((r) => pickByWeight(ads, r)!.id)).toEqual([1, 1, 1, 2, 2]);
    expect(pickByWeight([], 0.3)).toBeNull();
  });

  test('pages print slots with FEATURE_ADS on, and none when it is off, in news-only mode, or behind the age gate', async () => {
    const slots = (html: string) => (html.match(/data-ad-slot="([a-z-]+)"/g) ?? []).map((m) => m.slice(14, -1));
    const home = await request(t.app).get('/');
    expect(home.status).toBe(200);
    expect(slots(home.text)).toEqual(['leaderboard', 'in-feed']);
    expect(home.text).toMatch(/<script type="module" src="\/static\/dist\/[^"]*ad-slots[^"]*"><\/script>/);
    expect(slots((await request(t.app).get('/news/')).text)).toEqual(['leaderboard', 'in-feed']);

    const over18 = await request(t.app).get('/cannabis/').set('Cookie', 'is_user_over_18=true');
    expect(over18.status).toBe(200);
    expect(slots(over18.text)).toEqual([]);
    const gate = await request(t.app).get('/cannabis/');
    expect(slots(gate.text)).toEqual([]);

    for (const env of [{ FEATURE_ADS: 'false' }, { FEATURE_NEWS_ONLY: 'true' }, {}]) {
      const app = t.rebuild(env.FEATURE_ADS || env.FEATURE_NEWS_ONLY ? env : { FEATURE_ADS: '' });
      const page = await request(app).get('/news/');
      expect([env, page.status, slots(page.text)]).toEqual([env, 200, []]);
      expect([env, (await request(app).get('/api/ads/serve/?slot=leaderboard')).status]).toEqual([env, 404]);
    }
  });

  test('no third-party script unless one is configured; then the CSP allows its origin', async () => {
    const plain = await request(t.app).get('/');
    expect(plain.headers['content-security-policy']).not.toContain('bidder.example');
    expect(plain.text).not.toContain('data-bidder-script');
    const app = t.rebuild({ AD_BIDDER_SCRIPT_URL: 'https://bidder.example/prebid.js' });
    const res = await request(app).get('/');
    expect(res.text).toContain('data-bidder-script="https://bidder.example/prebid.js"');
    const csp = res.headers['content-security-policy'] as string;
    expect(/script-src ([^;]+)/.exec(csp)![1]).toContain('https://bidder.example');
    expect(/connect-src ([^;]+)/.exec(csp)![1]).toContain('https://bidder.example');
    // Ads off: no script, and the CSP does not open for it either.
    const off = await request(t.rebuild({ AD_BIDDER_SCRIPT_URL: 'https://bidder.example/prebid.js', FEATURE_ADS: 'false' })).get('/');
    expect(off.headers['content-security-policy']).not.toContain('bidder.example');
    expect(() => t.rebuild({ AD_BIDDER_SCRIPT_URL: 'http://insecure.example/x.js' })).toThrow(/AD_BIDDER_SCRIPT_URL/);
  });
});
