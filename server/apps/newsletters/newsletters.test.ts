import request from 'supertest';
import { createTestContext, guestAgent, type TestContext } from '../../testing/test-app';

describe('guest newsletters', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  describe('POST /api/v2/profiles/guest-newsletters/', () => {
    test('subscribes a new email (201) and updates it case-insensitively (200), keeping choices not sent', async () => {
      const agent = guestAgent(t.app);
      const created = await agent.post('/api/v2/profiles/guest-newsletters/').set('X-CSRFToken', agent.csrfToken).send({ email: 'Reader@Example.com', news: true, foods: true });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({ email: 'Reader@Example.com', news: true, foods: true, events: false, promotions: false, contests: false, real_estate: false, travel: false });
      const updated = await agent.post('/api/v2/profiles/guest-newsletters/').set('X-CSRFToken', agent.csrfToken).send({ email: 'reader@example.com', travel: true, news: false });
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({ news: false, foods: true, travel: true });
      expect(await t.ctx.db('guest_newsletter_subscriptions').count({ n: '*' }).first()).toEqual({ n: expect.anything() });
      const rows = await t.ctx.db('guest_newsletter_subscriptions').whereRaw('lower(email) = ?', ['reader@example.com']);
      expect(rows).toHaveLength(1);
    });

    test.each([
      [{}, 'This field is required.'],
      [{ email: 'not-an-email' }, 'Enter a valid email address.'],
      [{ email: `${'a'.repeat(250)}@example.com` }, 'Ensure this field has no more than 255 characters.'],
    ])('bad email %j answers 400 with email errors', async (body, message) => {
      const agent = guestAgent(t.app);
      const res = await agent.post('/api/v2/profiles/guest-newsletters/').set('X-CSRFToken', agent.csrfToken).send(body);
      expect(res.status).toBe(400);
      expect(res.body.email[0]).toBe(message);
    });

    test('a non-boolean choice is a 400 naming it', async () => {
      const agent = guestAgent(t.app);
      const res = await agent.post('/api/v2/profiles/guest-newsletters/').set('X-CSRFToken', agent.csrfToken).send({ email: 'x@example.com', news: 'yes' });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body)).toEqual(['news']);
    });

    test('a newsletter whose feature is off is never switched on', async () => {
      const app = t.rebuild({ FEATURE_EVENTS: 'false' });
      const agent = guestAgent(app);
      const res = await agent.post('/api/v2/profiles/guest-newsletters/').set('X-CSRFToken', agent.csrfToken).send({ email: 'noevents@example.com', events: true, news: true });
      expect(res.body).toMatchObject({ events: false, news: true });
    });
  });

  describe('/newsletters/ page', () => {
    test('offers the spec’s newsletters filtered by features, in a form that posts with the CSRF token', async () => {
      const agent = guestAgent(t.app);
      const res = await agent.get('/newsletters/');
      expect(res.status).toBe(200);
      for (const name of ['Top Stories', 'Top Events', 'Dished', 'Real Estate', 'Travel', 'Contests and Promotions', 'Contests']) expect(res.text).toContain(`<strong>${name}</strong>`);
      expect(res.text).toContain(`name="csrfmiddlewaretoken" value="${agent.csrfToken}"`);
      expect(res.headers['cache-control']).toBe('private, no-cache');
      const noListings = await request(t.rebuild({ FEATURE_LISTINGS: 'false' })).get('/newsletters/');
      expect(noListings.text).not.toContain('<strong>Dished</strong>');
      expect(noListings.text).toContain('<strong>Top Stories</strong>');
    });

    test('the footer’s GET signup arrives with its email filled in (escaped) and Top Stories ticked', async () => {
      const res = await request(t.app).get('/newsletters/?email=%22%3E%3Cscript%3Ex%3C%2Fscript%3E&news=on');
      expect(res.text).toContain('value="&quot;&gt;&lt;script&gt;x&lt;/script&gt;"');
      expect(res.text).toMatch(/name="news" value="on" checked/);
    });

    test('submitting without JavaScript subscribes and shows the success message', async () => {
      const agent = guestAgent(t.app);
      const res = await agent.post('/newsletters/').type('form').send({ csrfmiddlewaretoken: agent.csrfToken, email: 'form@example.com', news: 'on', events: 'on' });
      expect(res.status).toBe(200);
      expect(res.text).toContain('Submitted');
      expect(res.text).toContain('Thanks for signing up to our newsletter – we’re excited to have you on board. Expect to hear from us soon.');
      const row = await t.ctx.db('guest_newsletter_subscriptions').where({ email: 'form@example.com' }).first();
      expect(row).toMatchObject({ news: true, events: true, foods: false });
    });

    test('errors show beside their fields with the answers kept', async () => {
      const agent = guestAgent(t.app);
      const res = await agent.post('/newsletters/').type('form').send({ csrfmiddlewaretoken: agent.csrfToken, email: 'nope<b>' });
      expect(res.status).toBe(400);
      expect(res.text).toContain('Enter a valid email address.');
      expect(res.text).toContain('Choose at least one newsletter.');
      expect(res.text).toContain('value="nope&lt;b&gt;"');
      expect(res.text).toContain('aria-invalid="true"');
    });

    test('a post without the CSRF token is refused', async () => {
      const res = await guestAgent(t.app).post('/newsletters/').type('form').send({ email: 'x@example.com', news: 'on' });
      expect(res.status).toBe(403);
    });
  });
});
