import request from 'supertest';
import { jest } from '@jest/globals';
import { createMember, guestAgent, memberAgent, type Agent } from '../../testing/test-app';
import { postMultipart, staffSuite } from '../../testing/staff-suite';
import { createContest } from '../../testing/fixtures';
import { jpegImage } from '../media/test-images';
import { StorageFullError } from '../../storage/storage-full';
import { oldSlugsFromAuditLog } from '../../../migrations/20261130000700_old_slugs';
import { recentStaffActions } from '../staff-audit/audit-log-queries';

// Staff add and edit contests at /staff/contests/ (the contests table's fields: dates in the
// city's time, prize, rules, odds, the skill-testing question and its answer, an image):
// published at once, audited, purged; bad input a 400 naming the field with what was typed
// kept and nothing saved; the question is fixed once members have entered.

describe('staff contest editing', () => {
  const desk = staffSuite();

  const postForm = (as: Agent, fields: Record<string, string>, file: Buffer | null = null) =>
    postMultipart(as, '/staff/contests/save/', fields, file && { field: 'image', data: file, filename: 'prize.jpg', contentType: 'image/jpeg' });
  const valid = (over: Record<string, string> = {}) => ({
    title: 'Win a dinner for two at Alo',
    name: '',
    description: 'A tasting menu for two.',
    prize: 'Dinner for two (value $600).',
    rules: 'Open to residents of Ontario aged 19 and over.',
    odds: 'One prize. Odds depend on the number of eligible entries.',
    start_date: '2026-11-01T09:00',
    end_date: '2026-12-20T23:59',
    skill_question: '(7 × 6) + 12 − 4 = ?',
    skill_answer: '50',
    ...over,
  });
  const contestNamed = (name: string) => desk.t.ctx.db('contests').where({ name }).first();

  test('a new contest: dates read in Toronto time, published at once, audited and purged; its rules show the odds', async () => {
    const announce = jest.spyOn(desk.t.ctx.changes, 'announce');
    const res = await postForm(desk.editor, valid(), await jpegImage(900, 600));
    expect(res.status).toBe(303);
    const c = await contestNamed('win-a-dinner-for-two-at-alo');
    expect(res.headers.location).toBe(`/staff/contests/${c.id}/?saved=1`);
    expect(c).toMatchObject({ prize: 'Dinner for two (value $600).', skill_question: '(7 × 6) + 12 − 4 = ?', skill_answer: 50, odds: 'One prize. Odds depend on the number of eligible entries.' });
    // 09:00 in Toronto on November 1, 2026 (EST, after the change back) is 14:00 UTC.
    expect(new Date(c.start_date).toISOString()).toBe('2026-11-01T14:00:00.000Z');
    expect(new Date(c.end_date).toISOString()).toBe('2026-12-21T04:59:00.000Z');
    expect(c.image_key).toMatch(/^uploads\/m\d+\/.+\.jpg$/);
    expect(announce).toHaveBeenLastCalledWith({
      subject: `contest:${c.id}`,
      paths: ['/contests/', '/', `/contests/${c.name}/`, `/contests/${c.name}/rules/`],
      keys: [`contest-${c.id}`, 'contests', 'home'],
    });
    announce.mockRestore();
    const audit = await recentStaffActions(desk.t.ctx.db, { subjectType: 'contest', subjectId: Number(c.id) });
    expect(audit.map((a) => a.action)).toEqual(['contest.create']);

    const hub = await request(desk.t.app).get('/contests/').expect(200);
    expect(hub.text).toContain(`/contests/${c.name}/`);
    expect(hub.headers['surrogate-key']).toContain('contests');
    const rules = await request(desk.t.app).get(`/contests/${c.name}/rules/`).expect(200);
    expect(rules.text).toContain('<strong>Odds.</strong> One prize. Odds depend on the number of eligible entries.');
    expect(rules.text).toContain('(7 × 6) + 12 − 4 = ?');
    expect(rules.text).not.toContain('>50<');
    const staffPage = await desk.editor.get(`/staff/contests/${c.id}/?saved=1`).expect(200);
    expect(staffPage.text).toContain('The contest is saved.');
    const form = await desk.editor.get(`/staff/contests/${c.id}/edit/`).expect(200);
    expect(form.text).toContain('value="2026-11-01T09:00"');
    expect(form.text).toContain('value="2026-12-20T23:59"');
  });

  test('an edit changes the fields, keeps the image, lists what changed in the audit log', async () => {
    await postForm(desk.editor, valid({ title: 'Win jazz tickets', name: 'jazz-tickets' })).expect(303);
    const c = await contestNamed('jazz-tickets');
    const res = await postForm(desk.editor, valid({ id: String(c.id), title: 'Win jazz festival tickets', name: 'jazz-festival-tickets', prize: 'Two weekend passes.' }));
    expect(res.status).toBe(303);
    const after = await contestNamed('jazz-festival-tickets');
    expect(after).toMatchObject({ id: c.id, title: 'Win jazz festival tickets', prize: 'Two weekend passes.' });
    const [entry] = await recentStaffActions(desk.t.ctx.db, { subjectType: 'contest', subjectId: Number(c.id) });
    expect(entry.action).toBe('contest.update');
    expect(entry.detail).toMatchObject({ changed: ['title', 'name', 'prize'], old_name: 'jazz-tickets' });
  });

  test('a changed name keeps the old addresses (page, rules, entry form) as 301s to the new ones, also after a second change (A → B → C)', async () => {
    const guest = request(desk.t.app);
    await postForm(desk.editor, valid({ title: 'Win a canoe', name: 'canoe-a' })).expect(303);
    const { id } = await contestNamed('canoe-a');
    const rename = (name: string) => postForm(desk.editor, valid({ id: String(id), title: 'Win a canoe', name })).expect(303);
    await rename('canoe-b');
    expect((await guest.get('/contests/canoe-a/').expect(301)).headers.location).toBe('/contests/canoe-b/');
    await rename('canoe-c');
    for (const old of ['canoe-a', 'canoe-b']) {
      expect((await guest.get(`/contests/${old}/?ref=newsletter`).expect(301)).headers.location).toBe('/contests/canoe-c/?ref=newsletter');
      expect((await guest.get(`/contests/${old}/rules/`).expect(301)).headers.location).toBe('/contests/canoe-c/rules/');
      expect((await guest.get(`/contests/${old}/enter/`).expect(301)).headers.location).toBe('/contests/canoe-c/enter/');
    }
    expect((await guest.get('/contests/canoe-c/').expect(200)).text).toContain('Win a canoe');
    // Another contest may take a name this one left: its own page, no longer a redirect.
    await postForm(desk.editor, valid({ title: 'Win a kayak', name: 'canoe-a' })).expect(303);
    expect((await guest.get('/contests/canoe-a/').expect(200)).text).toContain('Win a kayak');
    expect((await guest.get('/contests/canoe-b/').expect(301)).headers.location).toBe('/contests/canoe-c/');
    await guest.get('/contests/never-was/').expect(404);
  });

  test('name changes staff made before old addresses were kept are read back from the audit log', async () => {
    await postForm(desk.editor, valid({ title: 'Win a bike', name: 'bike-a' })).expect(303);
    const { id } = await contestNamed('bike-a');
    await postForm(desk.editor, valid({ id: String(id), title: 'Win a bike', name: 'bike-b' })).expect(303);
    await desk.t.ctx.db('old_slugs').del();
    await request(desk.t.app).get('/contests/bike-a/').expect(404);
    await oldSlugsFromAuditLog(desk.t.ctx.db);
    expect((await request(desk.t.app).get('/contests/bike-a/rules/').expect(301)).headers.location).toBe('/contests/bike-b/rules/');
  });

  test('once members have entered, the question and answer are fixed; the rest may change', async () => {
    const id = await createContest(desk.t.ctx.db, { title: 'Entered contest', skill_question: '2 + 2 = ?', skill_answer: 4, start_date: new Date('2026-01-01T00:00:00Z') });
    const c = await desk.t.ctx.db('contests').where({ id }).first();
    const member = await createMember(desk.t.ctx);
    await desk.t.ctx.db('contest_entries').insert({ contest_id: id, profile_id: member.id, skill_answer: 4 });
    const form = valid({ id: String(id), title: 'Entered contest', name: c.name, skill_question: '3 + 3 = ?', skill_answer: '6' });
    const refused = await postForm(desk.editor, form);
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('data-field-error="skill_answer">A member has entered with the question as it is: it cannot change now.');
    expect(refused.text).toContain('value="3 + 3 = ?"');
    expect((await desk.t.ctx.db('contests').where({ id }).first()).skill_question).toBe('2 + 2 = ?');
    expect((await postForm(desk.editor, { ...form, skill_question: '2 + 2 = ?', skill_answer: '4', prize: 'A bigger prize.' })).status).toBe(303);
    expect((await desk.t.ctx.db('contests').where({ id }).first()).prize).toBe('A bigger prize.');
  });

  test('bad input: 400 naming each field, what was typed kept, nothing saved', async () => {
    const res = await postForm(desk.editor, valid({ title: '', prize: '', start_date: '2026-13-01T09:00', end_date: 'soon', skill_question: 'What is 2 + 2?', skill_answer: 'four', description: 'Kept words' }));
    expect(res.status).toBe(400);
    for (const field of ['title', 'prize', 'start_date', 'end_date', 'skill_answer']) expect(res.text).toContain(`data-field-error="${field}"`);
    expect(res.text).toContain('>Kept words</textarea>');
    expect(res.text).toContain('value="What is 2 + 2?"');

    const backwards = await postForm(desk.editor, valid({ title: 'Backwards', start_date: '2026-12-01T09:00', end_date: '2026-11-01T09:00' }));
    expect(backwards.status).toBe(400);
    expect(backwards.text).toContain('data-field-error="end_date">The contest must close after it opens.');
    const halfQuestion = await postForm(desk.editor, valid({ title: 'Backwards', skill_question: 'What is 3 + 3?', skill_answer: '' }));
    expect(halfQuestion.text).toContain('data-field-error="skill_answer">Give the answer to the question');
    const answerOnly = await postForm(desk.editor, valid({ title: 'Backwards', skill_question: '', skill_answer: '6' }));
    expect(answerOnly.text).toContain('data-field-error="skill_question">Give the question this answers');
    const notImage = await postForm(desk.editor, valid({ title: 'Backwards' }), Buffer.from('not an image'));
    expect(notImage.status).toBe(400);
    expect(notImage.text).toContain('data-field-error="image"');
    await postForm(desk.editor, valid({ title: 'Taken name', name: 'taken-contest' })).expect(303);
    const dup = await postForm(desk.editor, valid({ title: 'Backwards', name: 'taken-contest' }));
    expect(dup.text).toContain('data-field-error="name">Another contest has this address');
    expect(await desk.t.ctx.db('contests').where({ title: 'Backwards' }).first()).toBeUndefined();
  });

  test('the media storage full: 507 with the message beside the image, what was typed kept, nothing saved', async () => {
    const image = await jpegImage(900, 600);
    const put = jest.spyOn(desk.t.ctx.storage, 'put').mockRejectedValueOnce(new StorageFullError('uploads/full.jpg'));
    try {
      const res = await postForm(desk.editor, valid({ title: 'Full disk contest' }), image);
      expect(res.status).toBe(507);
      expect(res.text).toMatch(/data-field-error="image">[^<]*out of (storage )?space/i);
      expect(res.text).toContain('value="Full disk contest"');
      expect(await desk.t.ctx.db('contests').where({ title: 'Full disk contest' }).first()).toBeUndefined();
    } finally {
      put.mockRestore();
    }
    expect((await postForm(desk.editor, valid({ title: 'Full disk contest' }), image)).status).toBe(303);
  });

  test('staff only, with the CSRF token', async () => {
    const guest = guestAgent(desk.t.app);
    expect((await guest.get('/staff/contests/new/')).status).toBe(302);
    expect((await postForm(guest, valid({ title: 'Guest contest' }))).status).toBe(302);
    const member = await memberAgent(desk.t, await createMember(desk.t.ctx));
    expect((await member.get('/staff/contests/new/')).status).toBe(403);
    expect((await postForm(member, valid({ title: 'Member contest' }))).status).toBe(403);
    expect((await desk.editor.post('/staff/contests/save/').field('title', 'Tokenless contest').field('prize', 'x')).status).toBe(403);
    expect(await desk.t.ctx.db('contests').whereIn('title', ['Guest contest', 'Member contest', 'Tokenless contest'])).toEqual([]);
    expect((await desk.editor.get('/staff/contests/999999/edit/')).status).toBe(404);
  });
});
