import { createMember, createTestContext, guestAgent, memberAgent, type Agent, type TestContext } from '../../testing/test-app';
import { createArticle, createEvent, createListing, createPhoto } from '../../testing/fixtures';
import { send } from '../../testing/signed-in-member';
import { ratingRank, smartReviewScore } from '../listings/smart-review';
import { purgeDueAccounts } from './purge-job';
import { UNDO_PERIOD_MS } from './service';

// Delete my account, end to end in the real app: the form, sessions revoked everywhere, the
// undo link, and the purge seven days later (the clock injected through ctx.now), checked
// against a second member whose data must not move.

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const DAY = 24 * 3600 * 1000;
const db = () => t.ctx.db;
const undoLinkIn = (text: string) => new URL(/http:\/\/\S+?\/accounts\/delete\/undo\/[A-Za-z0-9_-]{43}\//.exec(text)![0]).pathname;
const sessionsOf = async (id: number) => (await db()('sessions').whereRaw("(sess::jsonb -> 'passport' ->> 'user') = ?", [String(id)])).length;
const login = (email: string, password: string) => {
  const agent = guestAgent(t.app);
  return agent.post('/api/v2/profiles/email-login/').set('X-CSRFToken', agent.csrfToken).send({ email, password });
};
const deleteForm = (agent: Agent, fields: Record<string, string>) => agent.post('/accounts/delete/').type('form').send({ csrfmiddlewaretoken: agent.csrfToken, ...fields });

/** A member with something of everything: saves through the API (so the counters move), a photo, an event. */
async function memberWithData(listing: number, rating: number) {
  const m = await createMember(t.ctx);
  const agent = await memberAgent(t, m);
  const article = await createArticle(db());
  expect((await send(agent, 'post', '/api/v2/favourites/', { listing })).status).toBe(201);
  expect((await send(agent, 'post', '/api/v2/ratings/', { listing, rating })).status).toBe(201);
  expect((await send(agent, 'post', '/api/v2/todos/', { listing })).status).toBe(201);
  expect((await send(agent, 'post', '/api/v2/article-bookmarks/', { object_id: article })).status).toBe(201);
  const photoKey = `photos/test-${m.id}.jpg`;
  await t.ctx.storage.put(photoKey, Buffer.from('not really a jpeg'), 'image/jpeg');
  const photo = await createPhoto(db(), { listing_id: listing, profile_id: m.id, image_key: photoKey });
  const event = await createEvent(db(), { title: `Open mic ${m.id}`, submitted_by: m.id, status: 'approved' });
  await db()('calendar_credentials').insert({ profile_id: m.id, access_token_enc: 'x' });
  await db()('profiles').where({ id: m.id }).update({ settings_receive_newsletter_news: true });
  await db()('guest_newsletter_subscriptions').insert({ email: m.email, news: true, unsubscribe_token: `tok-${m.id}` });
  return { ...m, agent, photo, photoKey, event };
}

async function rowsOf(id: number) {
  const count = async (table: string, column = 'profile_id') => Number((await db()(table).where({ [column]: id }).first(db().raw('count(*)::int as n'))).n);
  return {
    favourites: await count('favourites'),
    ratings: await count('ratings'),
    todos: await count('todos'),
    article_bookmarks: await count('article_bookmarks'),
    photos: await count('photos'),
    events: await count('events', 'submitted_by'),
    calendar_credentials: await count('calendar_credentials'),
    profile: await count('profiles', 'id'),
  };
}

async function listingStats(id: number) {
  return db()('listings').where({ id }).first('favourite_count', 'rating', 'rating_count', 'rating_rank', 'smart_review_score');
}

describe('GET and POST /accounts/delete/', () => {
  test('guests are sent to log in first', async () => {
    const res = await guestAgent(t.app).get('/accounts/delete/');
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/accounts/login?next=%2Faccounts%2Fdelete%2F');
  });

  test('the form asks for the password and the choice for photos and events, with the CSRF token', async () => {
    const m = await createMember(t.ctx);
    const agent = await memberAgent(t, m);
    const res = await agent.get('/accounts/delete/');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.text).toContain(`name="csrfmiddlewaretoken" value="${agent.csrfToken}"`);
    expect(res.text).toContain('name="password" type="password"');
    expect(res.text).toContain('value="anonymise"');
    expect(res.text).toContain('value="remove"');
  });

  test('a wrong password answers 400 naming the field, and nothing changes', async () => {
    const m = await createMember(t.ctx);
    const agent = await memberAgent(t, m);
    const mails = t.mailer.sent.length;
    const res = await deleteForm(agent, { password: 'not my password at all', content: 'remove' });
    expect(res.status).toBe(400);
    expect(res.text).toContain('* Your password was entered incorrectly. Please enter it again.');
    expect(res.text).toMatch(/name="password"[^>]*aria-invalid="true"/);
    expect(res.text).toMatch(/value="remove" checked/);
    expect(await db()('profiles').where({ id: m.id }).first('is_active')).toEqual({ is_active: true });
    expect(await db()('account_deletions').where({ profile_id: m.id })).toHaveLength(0);
    expect(await sessionsOf(m.id)).toBe(1);
    expect(t.mailer.sent.length).toBe(mails);
    expect((await agent.get('/api/v2/profiles/me/')).status).toBe(200);
  });

  test('no choice for photos and events answers 400 naming `content`', async () => {
    const m = await createMember(t.ctx);
    const res = await deleteForm(await memberAgent(t, m), { password: m.password });
    expect(res.status).toBe(400);
    expect(res.text).toContain('* Choose what happens to your photos and events.');
    expect(await db()('profiles').where({ id: m.id }).first('is_active')).toEqual({ is_active: true });
  });

  test('a POST without the CSRF token is refused (403) and changes nothing', async () => {
    const m = await createMember(t.ctx);
    const agent = await memberAgent(t, m);
    const res = await agent.post('/accounts/delete/').type('form').send({ password: m.password, content: 'remove' });
    expect(res.status).toBe(403);
    const wrongToken = await agent.post('/accounts/delete/').type('form').send({ csrfmiddlewaretoken: 'x'.repeat(43), password: m.password, content: 'remove' });
    expect(wrongToken.status).toBe(403);
    expect(await db()('profiles').where({ id: m.id }).first('is_active')).toEqual({ is_active: true });
  });
});

describe('the right password closes the account at once, and the undo link restores it', () => {
  test('sessions revoked everywhere, login refused, the email carries the undo link; undo restores', async () => {
    const m = await createMember(t.ctx);
    const here = await memberAgent(t, m);
    const elsewhere = await memberAgent(t, m); // a second device
    expect((await elsewhere.get('/api/v2/profiles/me/')).status).toBe(200);
    const mails = t.mailer.sent.length;

    const res = await deleteForm(here, { password: m.password, content: 'anonymise' });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/accounts/delete/scheduled/');
    expect(await sessionsOf(m.id)).toBe(0);
    expect((await elsewhere.get('/api/v2/profiles/me/')).status).toBe(401);
    expect((await here.get('/api/v2/profiles/me/')).status).toBe(401);
    const refused = await login(m.email, m.password);
    expect(refused.status).toBe(400);
    expect(refused.body.non_field_errors).toEqual([expect.stringContaining('This account is closed: you asked us to delete it')]);
    const scheduled = await here.get('/accounts/delete/scheduled/');
    expect(scheduled.text).toContain('Your account is closed');

    expect(t.mailer.sent.length).toBe(mails + 1);
    const mail = t.mailer.sent[mails];
    expect(mail.to).toBe(m.email);
    expect(mail.subject).toMatch(/will be deleted in 7 days/);
    expect(mail.text).toContain('stay on the site without your name');
    const undo = undoLinkIn(mail.text);
    const row = await db()('account_deletions').where({ profile_id: m.id }).first();
    expect(row.content).toBe('anonymise');
    // Only the hash is stored.
    expect(row.undo_token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(undo).not.toContain(row.undo_token_hash);
    expect(new Date(row.purge_after).getTime() - new Date(row.requested_at).getTime()).toBe(UNDO_PERIOD_MS);

    // A mail scanner following the link changes nothing: the GET only shows the button.
    const visitor = guestAgent(t.app);
    const page = await visitor.get(undo);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Restore my account');
    expect(page.headers['referrer-policy']).toBe('same-origin');
    expect(await db()('profiles').where({ id: m.id }).first('is_active')).toEqual({ is_active: false });
    expect((await visitor.post(undo).type('form').send({})).status).toBe(403);

    const restored = await visitor.post(undo).type('form').send({ csrfmiddlewaretoken: visitor.csrfToken });
    expect(restored.status).toBe(200);
    expect(restored.text).toContain('Account restored');
    expect(await db()('account_deletions').where({ profile_id: m.id })).toHaveLength(0);
    expect((await login(m.email, m.password)).status).toBe(200);
    // The link worked once.
    expect((await visitor.post(undo).type('form').send({ csrfmiddlewaretoken: visitor.csrfToken })).status).toBe(400);
  });

  test('while the account is closed its photos credit nobody, and restored they credit the member again', async () => {
    const m = await createMember(t.ctx, { full_name: 'Priya Closing' });
    const agent = await memberAgent(t, m);
    const listing = await createListing(db());
    const place = await db()('listings as l').join('listing_types as t', 't.id', 'l.type_id').where('l.id', listing).first('l.slug', 't.slug as type_slug');
    const photo = await createPhoto(db(), { listing_id: listing, profile_id: m.id });
    const started = new Date(t.ctx.now().getTime() - DAY);
    const challenge = (await db()('photo_challenges').insert({ name: `closing-${m.id}`, title: 'Closing', hashtag: 'closing', start_date: started, end_date: new Date(started.getTime() + 30 * DAY), date_published: started }).returning('id'))[0];
    await db()('photos').where({ id: photo }).update({ challenge_id: Number(challenge.id ?? challenge) });
    const visitor = guestAgent(t.app);
    const credits = async () => {
      const api = await visitor.get(`/api/v2/photos/?listing=${listing}`);
      const page = await visitor.get(`/${place.type_slug}/${place.slug}-${listing}/photos/${photo}/`);
      const grid = await visitor.get(`/${place.type_slug}/${place.slug}-${listing}/photos/`);
      const entries = await visitor.get(`/photo-challenges/closing-${m.id}/`);
      expect([api.status, page.status, grid.status, entries.status]).toEqual([200, 200, 200, 200]);
      return { api: api.body.results[0].profile, page: page.text.includes('Priya Closing'), grid: grid.text.includes('Priya Closing'), entries: entries.text.includes('Priya Closing') };
    };
    expect(await credits()).toEqual({ api: expect.objectContaining({ full_name: 'Priya Closing' }), page: true, grid: true, entries: true });

    const mails = t.mailer.sent.length;
    expect((await deleteForm(agent, { password: m.password, content: 'anonymise' })).status).toBe(303);
    expect(await credits()).toEqual({ api: null, page: false, grid: false, entries: false });

    const undo = undoLinkIn(t.mailer.sent[mails].text);
    expect((await visitor.post(undo).type('form').send({ csrfmiddlewaretoken: visitor.csrfToken })).status).toBe(200);
    expect(await credits()).toEqual({ api: expect.objectContaining({ full_name: 'Priya Closing' }), page: true, grid: true, entries: true });
  });

  test('logging in while the deletion is pending says so, with the day of the undo email, on the API and on the page', async () => {
    const m = await createMember(t.ctx);
    expect((await deleteForm(await memberAgent(t, m), { password: m.password, content: 'remove' })).status).toBe(303);
    const row = await db()('account_deletions').where({ profile_id: m.id }).first('requested_at', 'purge_after');
    const day = (d: Date, time = false) =>
      new Intl.DateTimeFormat('en-US', { timeZone: t.config.city.timeZone, weekday: 'long', month: 'long', day: 'numeric', year: 'numeric', ...(time ? { hour: 'numeric', minute: '2-digit' } : {}) }).format(new Date(d));
    const sentOn = day(row.requested_at);
    const purgeOn = day(row.purge_after, true).replace(/, (\d+:\d\d)/, ' at $1'); // "…, 2026 at 1:44 PM"

    // The navbar island's login (the API).
    const api = await login(m.email, m.password);
    expect(api.status).toBe(400);
    expect(api.body).toEqual({ non_field_errors: [expect.any(String)] });
    const apiMessage: string = api.body.non_field_errors[0];
    expect(apiMessage).toContain('This account is closed: you asked us to delete it');
    expect(apiMessage).toContain(`it will be deleted for good on ${purgeOn}`);
    expect(apiMessage).toContain(`open the link in the email we sent you on ${sentOn}.`);
    expect(([] as string[]).concat(api.headers['set-cookie'] ?? []).join()).not.toMatch(/sessionid=[^;]/);

    // The login page without JavaScript.
    const agent = guestAgent(t.app);
    const page = await agent.post('/accounts/login').type('form').send({ csrfmiddlewaretoken: agent.csrfToken, email: m.email, password: m.password, next: '/' });
    expect(page.status).toBe(400);
    expect(page.text).toContain(`open the link in the email we sent you on ${sentOn}.`);
    expect(page.text).not.toContain('Unable to log in');
    expect(await sessionsOf(m.id)).toBe(0);

    // Without the password nobody learns the account is being deleted.
    const wrongApi = await login(m.email, 'not the password at all');
    expect(wrongApi.body.non_field_errors).toEqual(['Unable to log in with provided credentials.']);
    const wrongPage = await agent.post('/accounts/login').type('form').send({ csrfmiddlewaretoken: agent.csrfToken, email: m.email, password: 'not the password at all' });
    expect(wrongPage.text).toContain('Unable to log in with provided credentials.');
    expect(wrongPage.text).not.toContain('This account is closed');
    // Not left for the purge tests below, which count what a purge deletes.
    await db()('account_deletions').where({ profile_id: m.id }).delete();
  });

  test('an account closed another way, or past its undo window, keeps the generic refusal', async () => {
    const deactivated = await createMember(t.ctx);
    await db()('profiles').where({ id: deactivated.id }).update({ is_active: false });
    expect((await login(deactivated.email, deactivated.password)).body.non_field_errors).toEqual(['Unable to log in with provided credentials.']);

    const late = await createMember(t.ctx);
    expect((await deleteForm(await memberAgent(t, late), { password: late.password, content: 'remove' })).status).toBe(303);
    // The seven days are over and the purge has not run yet: the undo link no longer works.
    await db()('account_deletions').where({ profile_id: late.id }).update({ purge_after: new Date(Date.now() - 60_000) });
    expect((await login(late.email, late.password)).body.non_field_errors).toEqual(['Unable to log in with provided credentials.']);
    await db()('account_deletions').where({ profile_id: late.id }).delete();
  });

  test('a tampered or unknown undo link is refused with 400', async () => {
    const agent = guestAgent(t.app);
    for (const token of ['A'.repeat(43), 'short', '%3Cscript%3E']) {
      const res = await agent.get(`/accounts/delete/undo/${token}/`);
      expect(res.status).toBe(400);
      expect(res.text).toContain("This link doesn't work any more");
    }
    expect((await agent.post(`/accounts/delete/undo/${'B'.repeat(43)}/`).type('form').send({ csrfmiddlewaretoken: agent.csrfToken })).status).toBe(400);
  });
});

describe('the purge after seven days', () => {
  const purgeAt = (when: Date) => purgeDueAccounts({ ...t.ctx, now: () => when });

  test.each(['anonymise', 'remove'] as const)('deletes the personal data, %s the photos and events, and keeps counters and ratings consistent', async (content) => {
    const listing = await createListing(db());
    const leaving = await memberWithData(listing, 5);
    const staying = await memberWithData(listing, 3);
    const stayingBefore = await rowsOf(staying.id);
    expect(await listingStats(listing)).toMatchObject({ favourite_count: 2, rating_count: 2, rating: 4 });

    const requested = new Date();
    expect((await deleteForm(leaving.agent, { password: leaving.password, content })).status).toBe(303);
    const undo = undoLinkIn(t.mailer.sent.at(-1)!.text);

    // Six days on nothing is deleted yet.
    expect(await purgeAt(new Date(requested.getTime() + 6 * DAY))).toEqual([]);
    expect((await rowsOf(leaving.id)).profile).toBe(1);

    const purged = await purgeAt(new Date(requested.getTime() + 7 * DAY + 60_000));
    expect(purged.map((p) => p.profileId)).toEqual([leaving.id]);
    expect(await rowsOf(leaving.id)).toEqual({ favourites: 0, ratings: 0, todos: 0, article_bookmarks: 0, photos: 0, events: 0, calendar_credentials: 0, profile: 0 });
    expect(await db()('account_deletions').where({ profile_id: leaving.id })).toHaveLength(0);
    expect(await db()('guest_newsletter_subscriptions').where({ email: leaving.email })).toHaveLength(0);
    expect(await db()('profiles').whereRaw('lower(email) = ?', [leaving.email])).toHaveLength(0);

    const photo = await db()('photos').where({ id: leaving.photo }).first();
    const event = await db()('events').where({ id: leaving.event }).first();
    const file = await t.ctx.storage.get(leaving.photoKey).catch(() => null);
    if (content === 'anonymise') {
      expect(photo).toMatchObject({ profile_id: null, listing_id: listing });
      expect(event).toMatchObject({ submitted_by: null, status: 'approved' });
      expect(file).not.toBeNull();
      // The public photo API shows it without anyone's name.
      const api = await guestAgent(t.app).get(`/api/v2/photos/?listing=${listing}`);
      expect(api.body.results.find((p: { id: number }) => p.id === leaving.photo)).toMatchObject({ profile: null });
    } else {
      expect(photo).toBeUndefined();
      expect(event).toBeUndefined();
      expect(file).toBeNull();
    }

    // Counters and aggregates are those of the member who stayed, by the one formula.
    const stats = { n: 1, sum: 3, recent: 1 };
    expect(await listingStats(listing)).toEqual({ favourite_count: 1, rating: 3, rating_count: 1, rating_rank: ratingRank(stats), smart_review_score: smartReviewScore(stats) });
    expect(await rowsOf(staying.id)).toEqual(stayingBefore);
    expect(await db()('guest_newsletter_subscriptions').where({ email: staying.email })).toHaveLength(1);
    expect((await staying.agent.get('/api/v2/profiles/me/')).status).toBe(200);

    // The undo link is dead, and the address is free for a new account.
    expect((await guestAgent(t.app).get(undo)).status).toBe(400);
    expect(await purgeAt(new Date(requested.getTime() + 8 * DAY))).toEqual([]);
  });

  test('an account restored in time is never purged', async () => {
    const m = await createMember(t.ctx);
    const agent = await memberAgent(t, m);
    await deleteForm(agent, { password: m.password, content: 'remove' });
    const visitor = guestAgent(t.app);
    await visitor.post(undoLinkIn(t.mailer.sent.at(-1)!.text)).type('form').send({ csrfmiddlewaretoken: visitor.csrfToken });
    expect(await purgeAt(new Date(Date.now() + 30 * DAY))).toEqual([]);
    expect((await rowsOf(m.id)).profile).toBe(1);
  });
});

describe('members without a password (Facebook or Apple) confirm by email', () => {
  test('the form emails a confirmation link; its button closes the account', async () => {
    const [row] = await db()('profiles').insert({ email: `social-${Date.now()}@example.com`, password_hash: null, facebook_id: `fb-${Date.now()}` }).returning(['id', 'email']);
    const agent = await memberAgent(t, row);
    const other = await memberAgent(t, row);
    const form = await agent.get('/accounts/delete/');
    expect(form.text).not.toContain('name="password"');
    expect(form.text).toContain('Email me the link');

    const res = await deleteForm(agent, { content: 'remove' });
    expect(res.status).toBe(200);
    expect(res.text).toContain(`We've sent a link to ${row.email}`);
    expect(await db()('profiles').where({ id: row.id }).first('is_active')).toEqual({ is_active: true });
    const mail = t.mailer.sent.at(-1)!;
    expect(mail.to).toBe(row.email);
    const confirm = new URL(/http:\/\/\S+?\/accounts\/delete\/confirm\/[A-Za-z0-9_-]{43}\//.exec(mail.text)![0]).pathname;

    const page = await agent.get(confirm);
    expect(page.status).toBe(200);
    expect(page.text).toContain('deleted with it');
    expect(await db()('profiles').where({ id: row.id }).first('is_active')).toEqual({ is_active: true });

    const done = await agent.post(confirm).type('form').send({ csrfmiddlewaretoken: agent.csrfToken });
    expect(done.status).toBe(303);
    expect(await db()('profiles').where({ id: row.id }).first('is_active')).toEqual({ is_active: false });
    expect((await other.get('/api/v2/profiles/me/')).status).toBe(401);
    expect(t.mailer.sent.at(-1)!.text).toMatch(/\/accounts\/delete\/undo\//);
    // The confirmation link is spent.
    expect((await guestAgent(t.app).get(confirm)).status).toBe(400);
  });

  test('a confirmation link never used lapses: the account stays, and the purge forgets the request', async () => {
    const [row] = await db()('profiles').insert({ email: `apple-${Date.now()}@example.com`, password_hash: null, apple_sub: `apple-${Date.now()}` }).returning(['id', 'email']);
    expect((await deleteForm(await memberAgent(t, row), { content: 'anonymise' })).status).toBe(200);
    const confirm = new URL(/http:\/\/\S+?\/accounts\/delete\/confirm\/[A-Za-z0-9_-]{43}\//.exec(t.mailer.sent.at(-1)!.text)![0]).pathname;
    const later = { ...t.ctx, now: () => new Date(Date.now() + 2 * DAY) };
    expect(await purgeDueAccounts(later)).toEqual([]);
    expect(await db()('account_deletions').where({ profile_id: row.id })).toHaveLength(0);
    expect(await db()('profiles').where({ id: row.id }).first('is_active')).toEqual({ is_active: true });
    expect((await guestAgent(t.app).get(confirm)).status).toBe(400);
  });
});
