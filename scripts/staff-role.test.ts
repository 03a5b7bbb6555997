import { createMember, createTestContext, memberAgent, type TestContext } from '../server/testing/test-app';
import { parseArgs, runStaffRole } from './staff-role';

describe('npm run staff:grant / staff:revoke', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  test('reads exactly one command and one email address, and a newsroom role with grant', () => {
    expect(parseArgs(['grant', 'Editor@Example.com'])).toEqual({ command: 'grant', email: 'editor@example.com' });
    expect(parseArgs(['revoke', 'a@b.ca'])).toEqual({ command: 'revoke', email: 'a@b.ca' });
    expect(parseArgs(['grant', 'a@b.ca', '--role', 'writer'])).toEqual({ command: 'grant', email: 'a@b.ca', role: 'writer' });
    for (const bad of [[], ['grant'], ['grant', 'not-an-email'], ['grant', 'a@b.ca', 'c@d.ca'], ['promote', 'a@b.ca'], ['grant', '--all'], ['grant', 'a@b.ca', '--role', 'owner'], ['revoke', 'a@b.ca', '--role', 'writer'], ['grant', 'a@b.ca', '--role']]) {
      expect(() => parseArgs(bad)).toThrow(/^usage: staff-role grant <email> \[--role contributor\|writer\|editor\|administrator\] \| revoke <email>/);
    }
  });

  test('grant --role gives the newsroom role too (the newsroom opens); revoke takes both away', async () => {
    const m = await createMember(t.ctx, { email: 'new.writer@example.com' });
    const agent = await memberAgent(t, m);
    expect((await agent.get('/staff/stories/')).status).toBe(403);
    expect(await runStaffRole(t.ctx.db, parseArgs(['grant', 'new.writer@example.com', '--role', 'writer']))).toBe(`new.writer@example.com (#${m.id}) is staff (newsroom: writer) now.`);
    expect(await t.ctx.db('profiles').where({ id: m.id }).first('is_staff', 'newsroom_role')).toEqual({ is_staff: true, newsroom_role: 'writer' });
    expect((await agent.get('/staff/stories/')).status).toBe(200);
    await runStaffRole(t.ctx.db, parseArgs(['revoke', 'new.writer@example.com']));
    expect(await t.ctx.db('profiles').where({ id: m.id }).first('is_staff', 'newsroom_role')).toEqual({ is_staff: false, newsroom_role: null });
    expect((await agent.get('/staff/stories/')).status).toBe(403);
  });

  test('grant makes the member staff (the staff area opens), revoke takes it back', async () => {
    const m = await createMember(t.ctx, { email: 'new.editor@example.com' });
    const agent = await memberAgent(t, m);
    expect((await agent.get('/staff/')).status).toBe(403);

    expect(await runStaffRole(t.ctx.db, parseArgs(['grant', 'New.Editor@example.com']))).toBe(`new.editor@example.com (#${m.id}) is staff now.`);
    expect(await t.ctx.db('profiles').where({ id: m.id }).first('is_staff')).toEqual({ is_staff: true });
    expect((await agent.get('/staff/')).status).toBe(200);
    expect(await runStaffRole(t.ctx.db, parseArgs(['grant', 'new.editor@example.com']))).toContain('already is staff; nothing changed.');

    expect(await runStaffRole(t.ctx.db, parseArgs(['revoke', 'new.editor@example.com']))).toBe(`new.editor@example.com (#${m.id}) is not staff now.`);
    expect(await t.ctx.db('profiles').where({ id: m.id }).first('is_staff')).toEqual({ is_staff: false });
    expect((await agent.get('/staff/')).status).toBe(403);
  });

  test('an unknown email is an error and changes nobody', async () => {
    const before = await t.ctx.db('profiles').where({ is_staff: true }).count('* as n').first();
    await expect(runStaffRole(t.ctx.db, parseArgs(['grant', 'nobody@example.com']))).rejects.toThrow('No member with the email nobody@example.com.');
    expect(await t.ctx.db('profiles').where({ is_staff: true }).count('* as n').first()).toEqual(before);
  });
});
