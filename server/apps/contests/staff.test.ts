import request from 'supertest';
import { createApp } from '../../app';
import { createMember, createTestContext, guestAgent, memberAgent, type MemberFixture, type TestContext } from '../../testing/test-app';
import { createContest } from '../../testing/fixtures';
import { recentStaffActions } from '../staff-audit/audit-log-queries';
import { drawWinner } from './draw-queries';

// The staff contest pages and the winner draw: staff only (guests to the login page, members
// a 403), every post CSRF-checked, the draw uniform among valid entries (right answer), written
// to the audit log in its transaction, and never repeated unless a redraw is asked for.

const DAY = 86_400_000;

describe('staff contest pages and the draw', () => {
  let t: TestContext;
  let staff: MemberFixture;
  let member: MemberFixture;
  let closedId: number;
  let openId: number;
  let validProfiles: number[];

  /** A closed contest (question 2 + 3 = 5) with two right answers and one wrong (the question was changed). */
  async function closedContestWithEntries(title: string): Promise<{ id: number; valid: number[]; invalid: number }> {
    const db = t.ctx.db;
    const id = await createContest(db, { title, skill_question: '2 + 3', skill_answer: 5, start_date: new Date(Date.now() - 9 * DAY), end_date: new Date(Date.now() - DAY), date_published: new Date(Date.now() - 9 * DAY) });
    const [a, b, c] = [await createMember(t.ctx), await createMember(t.ctx), await createMember(t.ctx)];
    await db('contest_entries').insert([
      { contest_id: id, profile_id: a.id, skill_answer: 5 },
      { contest_id: id, profile_id: b.id, skill_answer: 6 },
      { contest_id: id, profile_id: c.id, skill_answer: 5 },
    ]);
    return { id, valid: [a.id, c.id], invalid: b.id };
  }

  const winnerProfile = async (id: number) => {
    const row = await t.ctx.db('contests as c').leftJoin('contest_entries as e', 'e.id', 'c.winner_entry_id').where('c.id', id).first('e.profile_id', 'c.drawn_at');
    return { profileId: row.profile_id as number | null, drawnAt: row.drawn_at as Date | null };
  };
  const drawsOf = async (id: number) => recentStaffActions(t.ctx.db, { subjectType: 'contest', subjectId: id });

  beforeAll(async () => {
    t = await createTestContext();
    staff = await createMember(t.ctx, { is_staff: true, full_name: 'Staff Person' });
    member = await createMember(t.ctx);
    const closed = await closedContestWithEntries('Win a closed prize');
    closedId = closed.id;
    validProfiles = closed.valid;
    openId = await createContest(t.ctx.db, { title: 'Win an open prize', start_date: new Date(Date.now() - DAY) });
  });
  afterAll(() => t.close());

  test('guests are sent to log in, members who are not staff get a 403, on every staff contest route', async () => {
    const guest = guestAgent(t.app);
    for (const path of ['/staff/contests/', `/staff/contests/${closedId}/`]) {
      const res = await guest.get(path);
      expect([path, res.status, res.headers.location]).toEqual([path, 302, `/accounts/login?next=${encodeURIComponent(path)}`]);
    }
    const agent = await memberAgent(t, member);
    for (const path of ['/staff/contests/', `/staff/contests/${closedId}/`]) {
      const res = await agent.get(path);
      expect([path, res.status]).toEqual([path, 403]);
      expect(res.text).not.toContain('Win a closed prize');
    }
    const post = await agent.post(`/staff/contests/${closedId}/draw/`).type('form').send({ csrfmiddlewaretoken: agent.csrfToken });
    expect(post.status).toBe(403);
    expect((await guest.post(`/staff/contests/${closedId}/draw/`).type('form').send({ csrfmiddlewaretoken: guest.csrfToken })).status).toBe(302);
    expect((await winnerProfile(closedId)).drawnAt).toBeNull();
    expect(await drawsOf(closedId)).toEqual([]);
  });

  test('staff see every contest with its entry counts, and one contest with its entries', async () => {
    const agent = await memberAgent(t, staff);
    const list = await agent.get('/staff/contests/');
    expect(list.status).toBe(200);
    expect(list.headers['cache-control']).toBe('private, no-store');
    // In the staff area's layout: its menu, with "Contests" as the current section.
    expect(list.text).toContain('<nav class="tabs staff-nav" aria-label="Staff">');
    expect(list.text).toContain('<a class="tabs__link" href="/staff/contests/" aria-current="page">Contests</a>');
    expect(list.text).toContain('<meta name="robots" content="noindex, nofollow">');
    const row = /<tr>\s*<td data-label="Contest"><a href="\/staff\/contests\/(\d+)\/">Win a closed prize<\/a><\/td>[\s\S]*?<\/tr>/.exec(list.text)!;
    expect(Number(row[1])).toBe(closedId);
    expect(row[0]).toContain('<td class="staff-table__num" data-label="Entries">3</td>');
    expect(row[0]).toContain('<td class="staff-table__num" data-label="Valid">2</td>');
    const detail = await agent.get(`/staff/contests/${closedId}/`);
    expect(detail.status).toBe(200);
    expect(detail.text).toContain('<a class="tabs__link" href="/staff/contests/" aria-current="page">Contests</a>');
    expect(detail.text.match(/<td data-label="Valid">(Yes|No)<\/td>/g)).toEqual(['<td data-label="Valid">Yes</td>', '<td data-label="Valid">No</td>', '<td data-label="Valid">Yes</td>']);
    expect(detail.text).toContain('Draw a winner</button>');
    expect((await agent.get('/staff/contests/999999/')).status).toBe(404);
    expect((await agent.get('/staff/contests/abc/')).status).toBe(404);
  });

  test('a staff post without the CSRF token is refused and draws nothing', async () => {
    const agent = await memberAgent(t, staff);
    const res = await agent.post(`/staff/contests/${closedId}/draw/`).type('form').send({});
    expect(res.status).toBe(403);
    expect(res.text).toContain('CSRF');
    const wrong = await agent.post(`/staff/contests/${closedId}/draw/`).type('form').send({ csrfmiddlewaretoken: 'x'.repeat(43) });
    expect(wrong.status).toBe(403);
    expect((await winnerProfile(closedId)).drawnAt).toBeNull();
    expect(await drawsOf(closedId)).toEqual([]);
  });

  test('staff draw a winner among the valid entries, written to the audit log; a second draw is refused unless asked for', async () => {
    const agent = await memberAgent(t, staff);
    const res = await agent.post(`/staff/contests/${closedId}/draw/`).type('form').send({ csrfmiddlewaretoken: agent.csrfToken });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(`/staff/contests/${closedId}/?drawn=1&mail=sent`);
    const first = await winnerProfile(closedId);
    expect(validProfiles).toContain(first.profileId);
    const [entry] = await drawsOf(closedId);
    expect(entry).toMatchObject({ staff_id: staff.id, staff_email: staff.email, action: 'contest.draw', subject_type: 'contest', subject_id: closedId });
    expect(entry.detail).toMatchObject({ profile_id: first.profileId, valid_entries: 2, previous_entry_id: null });
    const page = await agent.get(res.headers.location);
    expect(page.text).toContain('Winner drawn:');
    expect(page.text).toContain('The winner has been emailed.');
    expect(page.text).toContain('class="staff-table__winner"');

    const again = await agent.post(`/staff/contests/${closedId}/draw/`).type('form').send({ csrfmiddlewaretoken: agent.csrfToken });
    expect(again.status).toBe(409);
    expect(again.text).toContain('A winner has already been drawn.');
    expect(await winnerProfile(closedId)).toEqual(first);
    expect(await drawsOf(closedId)).toHaveLength(1);

    const redraw = await agent.post(`/staff/contests/${closedId}/draw/`).type('form').send({ csrfmiddlewaretoken: agent.csrfToken, redraw: 'on' });
    expect(redraw.status).toBe(303);
    const log = await drawsOf(closedId);
    expect(log.map((e) => e.action)).toEqual(['contest.redraw', 'contest.draw']);
    expect(log[0].detail).toMatchObject({ previous_entry_id: entry.detail!.entry_id });
    expect(validProfiles).toContain((await winnerProfile(closedId)).profileId);
  });

  test('the winner is emailed once the draw has committed: the prize, the contest link, replies to staff', async () => {
    const db = t.ctx.db;
    const id = await createContest(db, { title: 'Win Raptors tickets', prize: 'Two tickets to a home game', start_date: new Date(Date.now() - 9 * DAY), end_date: new Date(Date.now() - DAY) });
    const winner = await createMember(t.ctx, { full_name: 'Lucky Member' });
    await db('contest_entries').insert({ contest_id: id, profile_id: winner.id });
    const name = (await db('contests').where({ id }).first('name')).name as string;
    // What the contest row says when the email goes out: drawn (committed), not the row before the draw.
    const seenAtSend: Array<Date | null> = [];
    const app = createApp({ ...t.ctx, mailer: { send: async (m) => { seenAtSend.push((await db('contests').where({ id }).first('drawn_at')).drawn_at); await t.mailer.send(m); } } });
    const agent = await memberAgent({ app, ctx: t.ctx }, staff);
    const sent = t.mailer.sent.length;
    const res = await agent.post(`/staff/contests/${id}/draw/`).type('form').send({ csrfmiddlewaretoken: agent.csrfToken });
    expect(res.headers.location).toBe(`/staff/contests/${id}/?drawn=1&mail=sent`);
    expect(seenAtSend).toEqual([expect.any(Date)]);
    expect(t.mailer.sent.slice(sent)).toEqual([expect.objectContaining({ to: winner.email, replyTo: t.config.mail.staffEmail, subject: 'You won "Win Raptors tickets"' })]);
    const text = t.mailer.sent[sent].text;
    expect(text).toContain('Hello Lucky Member,');
    expect(text).toContain('Two tickets to a home game');
    expect(text).toContain(`${t.config.site.url}/contests/${name}/`);
    // No question asked at entry: the rules say the winner answers one before the prize.
    expect(text).toContain('skill-testing question');
    const [entry] = await drawsOf(id);
    expect(entry.detail).toMatchObject({ emailed: winner.email });
  });

  test('a mail server that fails leaves the winner drawn, and the page says the email was not sent', async () => {
    const id = await createContest(t.ctx.db, { title: 'Win despite the mail', start_date: new Date(Date.now() - 9 * DAY), end_date: new Date(Date.now() - DAY) });
    const winner = await createMember(t.ctx);
    await t.ctx.db('contest_entries').insert({ contest_id: id, profile_id: winner.id });
    const app = createApp({ ...t.ctx, mailer: { send: () => Promise.reject(new Error('connection refused')) } });
    const agent = await memberAgent({ app, ctx: t.ctx }, staff);
    const res = await agent.post(`/staff/contests/${id}/draw/`).type('form').send({ csrfmiddlewaretoken: agent.csrfToken });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(`/staff/contests/${id}/?drawn=1&mail=failed`);
    expect((await winnerProfile(id)).profileId).toBe(winner.id);
    expect((await drawsOf(id)).map((e) => e.action)).toEqual(['contest.draw']);
    const page = await agent.get(res.headers.location);
    expect(page.text).toContain('<strong>The email to the winner could not be sent</strong>');
    expect(page.text).toContain(`contact them at ${winner.email}`);
    expect(page.text).not.toContain('The winner has been emailed.');
  });

  test('an open contest cannot be drawn yet; a contest without valid entries has nothing to draw', async () => {
    const agent = await memberAgent(t, staff);
    const open = await agent.post(`/staff/contests/${openId}/draw/`).type('form').send({ csrfmiddlewaretoken: agent.csrfToken });
    expect(open.status).toBe(409);
    expect(open.text).toContain('This contest is still open');
    const empty = await createContest(t.ctx.db, { title: 'Win nothing', start_date: new Date(Date.now() - 3 * DAY), end_date: new Date(Date.now() - DAY) });
    const none = await agent.post(`/staff/contests/${empty}/draw/`).type('form').send({ csrfmiddlewaretoken: agent.csrfToken });
    expect(none.status).toBe(409);
    expect(none.text).toContain('There are no valid entries to draw from.');
    expect(await drawsOf(openId)).toEqual([]);
    expect(await drawsOf(empty)).toEqual([]);
    expect((await agent.post('/staff/contests/999999/draw/').type('form').send({ csrfmiddlewaretoken: agent.csrfToken })).status).toBe(404);
  });

  test('the draw picks the valid entry the random index names, counting only valid entries', async () => {
    const { id, valid, invalid } = await closedContestWithEntries('Win by index');
    const asked: number[] = [];
    const actor = { id: staff.id, email: staff.email };
    for (const [index, expected] of [[0, valid[0]], [1, valid[1]]] as const) {
      const result = await drawWinner(t.ctx.db, id, actor, { redraw: true, now: new Date(), randomIndex: (max) => (asked.push(max), index) });
      expect(result).toMatchObject({ outcome: 'drawn', profileId: expected, validEntries: 2 });
      expect((await winnerProfile(id)).profileId).toBe(expected);
    }
    expect(asked).toEqual([2, 2]);
    expect(valid).not.toContain(invalid);
  });

  test('a draw that fails leaves neither a winner nor an audit entry (one transaction)', async () => {
    const { id } = await closedContestWithEntries('Win atomically');
    const failing = () => {
      throw new Error('random source failed');
    };
    await expect(drawWinner(t.ctx.db, id, { id: staff.id, email: staff.email }, { redraw: false, now: new Date(), randomIndex: failing })).rejects.toThrow('random source failed');
    expect((await winnerProfile(id)).drawnAt).toBeNull();
    expect(await drawsOf(id)).toEqual([]);
  });

  test('with crypto.randomInt, every valid entry wins about as often as the others', async () => {
    const { id, valid, invalid } = await closedContestWithEntries('Win fairly');
    const wins = new Map<number, number>();
    const draws = 240;
    for (let i = 0; i < draws; i++) {
      const result = await drawWinner(t.ctx.db, id, { id: staff.id, email: staff.email }, { redraw: true, now: new Date() });
      if (result.outcome !== 'drawn') throw new Error(result.outcome);
      wins.set(result.profileId, (wins.get(result.profileId) ?? 0) + 1);
    }
    expect(wins.get(invalid)).toBeUndefined();
    // Each of the two is expected 120 times (sd ≈ 7.7): outside 80–160 is a > 5-sigma event.
    for (const p of valid) expect(wins.get(p)).toBeGreaterThan(80);
    for (const p of valid) expect(wins.get(p)).toBeLessThan(160);
  });

  test('a winner whose member is deleted leaves the draw recorded and the winner empty, for a redraw', async () => {
    const { id, valid } = await closedContestWithEntries('Win then leave');
    await drawWinner(t.ctx.db, id, { id: staff.id, email: staff.email }, { redraw: false, now: new Date(), randomIndex: () => 0 });
    await t.ctx.db('profiles').where({ id: valid[0] }).delete();
    const after = await winnerProfile(id);
    expect(after.profileId).toBeNull();
    expect(after.drawnAt).not.toBeNull();
    const page = await (await memberAgent(t, staff)).get(`/staff/contests/${id}/`);
    expect(page.text).toContain('The winning entry was removed');
    expect(page.text).toContain('Draw again</button>');
    expect(await request(t.app).get('/staff/contests/')).toHaveProperty('status', 302);
  });
});
