import request from 'supertest';
import { createMember, createTestContext, guestAgent, memberAgent, type TestContext } from '../../testing/test-app';
import { createContest } from '../../testing/fixtures';
import { SKILL_ANSWER_MESSAGES } from './entry-queries';

// Entering a contest through its form: one entry per member, only while it is open, the
// skill-testing question checked, guests sent to log in; and the contest page stays the same
// HTML for guests and members (shared caches keep it).

const DAY = 86_400_000;

describe('contest entries', () => {
  let t: TestContext;
  let open: string; // with the question "7 × 6 − 30" = 12
  let plain: string; // no question
  let ended: string;
  let upcoming: string;
  let openId: number;

  const nameOf = async (id: number) => (await t.ctx.db('contests').where({ id }).first('name')).name as string;
  const entriesOf = async (name: string) =>
    t.ctx.db('contest_entries as e').join('contests as c', 'c.id', 'e.contest_id').where('c.name', name).select('e.profile_id', 'e.skill_answer');

  beforeAll(async () => {
    t = await createTestContext();
    const db = t.ctx.db;
    openId = await createContest(db, { title: 'Win dinner', prize: 'Dinner for two', skill_question: '7 × 6 − 30 = ?', skill_answer: 12, start_date: new Date(Date.now() - DAY) });
    open = await nameOf(openId);
    plain = await nameOf(await createContest(db, { title: 'Win a mug', start_date: new Date(Date.now() - DAY) }));
    ended = await nameOf(await createContest(db, { title: 'Win a past prize', start_date: new Date(Date.now() - 9 * DAY), end_date: new Date(Date.now() - DAY), date_published: new Date(Date.now() - 9 * DAY) }));
    upcoming = await nameOf(await createContest(db, { title: 'Win later', start_date: new Date(Date.now() + 2 * DAY), end_date: new Date(Date.now() + 9 * DAY) }));
  });
  afterAll(() => t.close());

  test('the contest page has the entry form, the same HTML for a guest and a member, shared by caches', async () => {
    const guest = await request(t.app).get(`/contests/${open}/`);
    expect(guest.status).toBe(200);
    expect(guest.headers['cache-control']).toMatch(/max-age=60/);
    expect(guest.text).toContain(`<form class="form contest-entry__form" action="/contests/${open}/enter/" method="get" data-contest-entry-form>`);
    expect(guest.text).toContain('Skill-testing question: 7 × 6 − 30 = ?');
    expect(guest.text).toContain(`href="/contests/${open}/rules/">Official rules and odds</a>`);
    expect(guest.text).not.toContain('csrfmiddlewaretoken');
    const member = await memberAgent(t, await createMember(t.ctx));
    const asMember = await member.get(`/contests/${open}/`);
    const form = (html: string) => /<section class="contest-entry"[\s\S]*?<\/section>/.exec(html)![0];
    expect(form(asMember.text)).toBe(form(guest.text));
    // Closed and not-yet-open contests say so instead of showing the form.
    expect((await request(t.app).get(`/contests/${ended}/`)).text).toMatch(/Entries closed on <time/);
    expect((await request(t.app).get(`/contests/${upcoming}/`)).text).toMatch(/Entries open on <time/);
    expect((await request(t.app).get(`/contests/${ended}/`)).text).not.toContain('data-contest-entry-form');
  });

  test('the rules page shows the rules and the standard disclosure', async () => {
    await t.ctx.db('contests').where({ name: open }).update({ rules: 'Open to residents of Ontario, 18 or older.' });
    const res = await request(t.app).get(`/contests/${open}/rules/`);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toMatch(/max-age=60/);
    expect(res.text).toContain('Open to residents of Ontario, 18 or older.');
    expect(res.text).toContain('No purchase necessary.');
    expect(res.text).toContain('the odds of winning depend on the number of eligible entries received');
    expect(res.text).toContain('“7 × 6 − 30 = ?”');
    expect(res.text).toMatch(/Eastern Time \(Canada\/Eastern, E[SD]T\)/);
    expect((await request(t.app).get('/contests/no-such-contest/rules/')).status).toBe(404);
  });

  test('a guest sees a login link that returns to the form; a guest post is sent to log in and saves nothing', async () => {
    const guest = guestAgent(t.app);
    const page = await guest.get(`/contests/${open}/enter/`);
    expect(page.status).toBe(200);
    expect(page.headers['cache-control']).toBe('private, no-cache');
    const next = `/accounts/login?next=${encodeURIComponent(`/contests/${open}/enter/`)}`;
    expect(page.text).toContain(`href="${next.replace(/&/g, '&amp;')}">Log in to enter</a>`);
    expect(page.text).not.toContain('name="skill_answer"');
    const post = await guest.post(`/contests/${open}/enter/`).type('form').send({ csrfmiddlewaretoken: guest.csrfToken, skill_answer: '12' });
    expect(post.status).toBe(303);
    expect(post.headers.location).toBe(next);
    expect(await entriesOf(open)).toEqual([]);
  });

  test('a member enters with the right answer once; a second attempt gets a clear message and no second entry', async () => {
    const m = await createMember(t.ctx);
    const agent = await memberAgent(t, m);
    // Without JavaScript the contest page's form arrives here by GET, the answer filled in.
    const form = await agent.get(`/contests/${open}/enter/?skill_answer=12`);
    expect(form.status).toBe(200);
    expect(form.text).toContain(`name="csrfmiddlewaretoken" value="${agent.csrfToken}"`);
    expect(form.text).toContain('value="12"');
    const post = await agent.post(`/contests/${open}/enter/`).type('form').send({ csrfmiddlewaretoken: agent.csrfToken, skill_answer: ' 12 ' });
    expect(post.status).toBe(303);
    expect(post.headers.location).toBe(`/contests/${open}/enter/`);
    const thanks = await agent.get(`/contests/${open}/enter/`);
    expect(thanks.text).toContain('You’re entered');
    expect(thanks.text).not.toContain('name="skill_answer"');
    expect(await entriesOf(open)).toEqual([{ profile_id: m.id, skill_answer: 12 }]);

    const again = await agent.post(`/contests/${open}/enter/`).type('form').send({ csrfmiddlewaretoken: agent.csrfToken, skill_answer: '12' });
    expect(again.status).toBe(409);
    expect(again.text).toContain('You have already entered this contest: there is one entry per member.');
    expect(again.text).toContain('<main');
    expect(await entriesOf(open)).toHaveLength(1);
  });

  test('a wrong, missing or non-numeric answer is a 400 naming the field, and saves nothing', async () => {
    const m = await createMember(t.ctx);
    const agent = await memberAgent(t, m);
    const cases: Array<[Record<string, string>, string]> = [
      [{ skill_answer: '13' }, SKILL_ANSWER_MESSAGES.wrong],
      [{}, SKILL_ANSWER_MESSAGES.required],
      [{ skill_answer: '' }, SKILL_ANSWER_MESSAGES.required],
      [{ skill_answer: 'twelve' }, SKILL_ANSWER_MESSAGES.notANumber],
      [{ skill_answer: '99999999999999' }, SKILL_ANSWER_MESSAGES.notANumber],
    ];
    for (const [fields, message] of cases) {
      const res = await agent.post(`/contests/${open}/enter/`).type('form').send({ csrfmiddlewaretoken: agent.csrfToken, ...fields });
      expect([fields, res.status]).toEqual([fields, 400]);
      expect(res.text).toContain(`<p id="skill_answer-error" class="field-error">${message.replace(/'/g, '&#39;')}</p>`);
      expect(res.text).toContain('aria-invalid="true"');
    }
    expect((await entriesOf(open)).filter((e) => e.profile_id === m.id)).toEqual([]);
    // Then the right answer goes through.
    expect((await agent.post(`/contests/${open}/enter/`).type('form').send({ csrfmiddlewaretoken: agent.csrfToken, skill_answer: '12' })).status).toBe(303);
  });

  test('two posts at once from one member make one entry: the other is told they have entered', async () => {
    const m = await createMember(t.ctx);
    const agent = await memberAgent(t, m);
    const post = () => agent.post(`/contests/${open}/enter/`).type('form').send({ csrfmiddlewaretoken: agent.csrfToken, skill_answer: '12' });
    const statuses = (await Promise.all([post(), post(), post()])).map((r) => r.status).sort();
    expect(statuses).toEqual([303, 409, 409]);
    expect((await entriesOf(open)).filter((e) => e.profile_id === m.id)).toHaveLength(1);
  });

  test('a contest without a question takes an entry without an answer', async () => {
    const m = await createMember(t.ctx);
    const agent = await memberAgent(t, m);
    expect((await agent.get(`/contests/${plain}/enter/`)).text).toContain('Enter the contest</button>');
    const res = await agent.post(`/contests/${plain}/enter/`).type('form').send({ csrfmiddlewaretoken: agent.csrfToken });
    expect(res.status).toBe(303);
    expect(await entriesOf(plain)).toEqual([{ profile_id: m.id, skill_answer: null }]);
  });

  test('entries are refused after the end date and before the start date, with a clear message', async () => {
    const agent = await memberAgent(t, await createMember(t.ctx));
    const closed = await agent.post(`/contests/${ended}/enter/`).type('form').send({ csrfmiddlewaretoken: agent.csrfToken });
    expect(closed.status).toBe(403);
    expect(closed.text).toMatch(/This contest closed on [A-Z][a-z]+ \d{1,2}, \d{4} at \d{1,2}:\d\d [ap]m E[SD]T: entries are no longer accepted\./);
    const early = await agent.post(`/contests/${upcoming}/enter/`).type('form').send({ csrfmiddlewaretoken: agent.csrfToken });
    expect(early.status).toBe(403);
    expect(early.text).toContain('This contest opens for entries on');
    expect(await entriesOf(ended)).toEqual([]);
    expect(await entriesOf(upcoming)).toEqual([]);
    // The GET of a closed contest's form page says so too.
    expect((await agent.get(`/contests/${ended}/enter/`)).text).toContain('entries are no longer accepted');
  });

  test('a post without the CSRF token is refused; unknown contests are 404', async () => {
    const m = await createMember(t.ctx);
    const agent = await memberAgent(t, m);
    const res = await agent.post(`/contests/${plain}/enter/`).type('form').send({});
    expect(res.status).toBe(403);
    expect(res.text).toContain('CSRF');
    expect((await entriesOf(plain)).filter((e) => e.profile_id === m.id)).toEqual([]);
    expect((await agent.post('/contests/no-such-contest/enter/').type('form').send({ csrfmiddlewaretoken: agent.csrfToken })).status).toBe(404);
    expect((await agent.get('/contests/no-such-contest/enter/')).status).toBe(404);
  });

  test('a member deleted takes their entries with them', async () => {
    const m = await createMember(t.ctx);
    const agent = await memberAgent(t, m);
    await agent.post(`/contests/${plain}/enter/`).type('form').send({ csrfmiddlewaretoken: agent.csrfToken });
    expect((await entriesOf(plain)).some((e) => e.profile_id === m.id)).toBe(true);
    await t.ctx.db('profiles').where({ id: m.id }).delete();
    expect((await entriesOf(plain)).some((e) => e.profile_id === m.id)).toBe(false);
    expect(await t.ctx.db('contests').where({ id: openId }).first('id')).toBeTruthy();
  });
});
