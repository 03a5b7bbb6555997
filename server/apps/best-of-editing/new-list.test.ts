import request from 'supertest';
import { jest } from '@jest/globals';
import { createMember, createTestContext, guestAgent, memberAgent, type Agent, type TestContext } from '../../testing/test-app';
import { mainOf } from '../../testing/html-test-helpers';
import { recentStaffActions } from '../staff-audit/audit-log-queries';

// Staff start a Best of list at /staff/best-of/ (title, address from the title, intro,
// criteria): it is on /best-of/ at once, empty, audited, and its pages purged; a refused form
// says which field and keeps what was typed, and makes nothing.

describe('Best of lists: a new list', () => {
  let t: TestContext;
  let editor: Agent;

  beforeAll(async () => {
    t = await createTestContext();
    editor = await memberAgent(t, await createMember(t.ctx, { is_staff: true, full_name: 'Sam Editor' }));
  });
  afterAll(() => t.close());

  const post = (agent: Agent, fields: Record<string, string>) => agent.post('/staff/best-of/new/').type('form').send({ csrfmiddlewaretoken: agent.csrfToken, ...fields });
  const listsNamed = (title: string) => t.ctx.db('best_of_lists').where({ title }).select('id', 'slug', 'intro', 'criteria');

  test('a list made from the form: slug from the title, on /best-of/ and its own page, audited and purged', async () => {
    const announce = jest.spyOn(t.ctx.changes, 'announce');
    const res = await post(editor, { title: 'The best bánh mì & sandwiches', slug: '', intro: 'Crusty, warm, cheap.', criteria: 'We ate at twelve shops over two months.' });
    expect([res.status, res.headers.location]).toEqual([303, '/staff/best-of/the-best-banh-mi-and-sandwiches/?done=created']);
    const [list] = await listsNamed('The best bánh mì & sandwiches');
    expect(list).toMatchObject({ slug: 'the-best-banh-mi-and-sandwiches', intro: 'Crusty, warm, cheap.', criteria: 'We ate at twelve shops over two months.' });
    const audit = await recentStaffActions(t.ctx.db, { subjectType: 'best_of_list', subjectId: Number(list.id) });
    expect(audit.map((a) => [a.action, a.detail])).toEqual([['best_of.created', { list: list.slug, title: 'The best bánh mì & sandwiches' }]]);
    expect(announce).toHaveBeenCalledWith(expect.objectContaining({ paths: ['/best-of/', `/best-of/${list.slug}/`], keys: expect.arrayContaining([`list-${list.id}`, 'section-best-of']) }));
    announce.mockRestore();

    const staffPage = await editor.get(res.headers.location).expect(200);
    expect(staffPage.text).toContain('The list is published, with no picks yet');
    const hub = mainOf((await request(t.app).get('/best-of/').expect(200)).text);
    expect(hub).toContain(`/best-of/${list.slug}/`);
    const pub = mainOf((await request(t.app).get(`/best-of/${list.slug}/`).expect(200)).text);
    expect(pub).toContain('We ate at twelve shops over two months.');
    expect(pub).toContain('No changes since the list was published.');
  });

  test('a typed address is kept as typed; one already taken is refused on the slug field, with what was typed', async () => {
    expect((await post(editor, { title: 'Best patios', slug: 'patios-2026', criteria: 'Sun after 5 pm.' })).status).toBe(303);
    const res = await post(editor, { title: 'Best patios again', slug: 'patios-2026', intro: 'Second try', criteria: 'Shade too.' });
    expect(res.status).toBe(400);
    const html = mainOf(res.text);
    expect(html).toContain('data-field-error="slug">Another list has this address: choose another.');
    expect(html).toContain('value="Best patios again"');
    expect(html).toContain('>Second try</textarea>');
    expect(await listsNamed('Best patios again')).toEqual([]);
  });

  test('bad input: 400 naming each field, nothing made', async () => {
    const res = await post(editor, { title: '  ', slug: 'Not A Slug!', criteria: '' });
    expect(res.status).toBe(400);
    const html = mainOf(res.text);
    expect(html).toContain('data-field-error="title">Give the list a title.');
    expect(html).toContain('data-field-error="criteria">Write how the editors choose.');
    expect(html).toContain('aria-invalid="true" aria-describedby="new-title-error"');
    const bad = await post(editor, { title: 'Fine title', slug: 'Not A Slug!', criteria: 'x' });
    expect(bad.status).toBe(400);
    expect(mainOf(bad.text)).toContain('data-field-error="slug">Use lower-case letters');
    expect(await listsNamed('Fine title')).toEqual([]);
  });

  test('staff only, with the CSRF token', async () => {
    const guest = guestAgent(t.app);
    expect((await post(guest, { title: 'Guest list', criteria: 'x' })).status).toBe(302);
    const member = await memberAgent(t, await createMember(t.ctx));
    expect((await post(member, { title: 'Member list', criteria: 'x' })).status).toBe(403);
    expect((await editor.post('/staff/best-of/new/').type('form').send({ title: 'No token list', criteria: 'x' })).status).toBe(403);
    expect(await t.ctx.db('best_of_lists').whereIn('title', ['Guest list', 'Member list', 'No token list'])).toEqual([]);
  });
});
