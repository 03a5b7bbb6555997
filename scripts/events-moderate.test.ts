import { createEvent } from '../server/testing/fixtures';
import { createMember, createTestContext, type MemberFixture, type TestContext } from '../server/testing/test-app';
import { recentStaffActions } from '../server/apps/staff-audit/audit-log-queries';
import { parseArgs, runEventsModerate } from './events-moderate';

// npm run events:moderate decides through the staff area's service: the same audit entry and
// the same email to the member as a decision taken at /staff/events/, under the --as account.

describe('npm run events:moderate', () => {
  let t: TestContext;
  let staff: MemberFixture;
  let submitter: MemberFixture;
  beforeAll(async () => {
    t = await createTestContext();
    staff = await createMember(t.ctx, { is_staff: true, email: 'desk@example.com' });
    submitter = await createMember(t.ctx, { full_name: 'Sam Submitter' });
  });
  afterAll(() => t.close());

  test('reads its arguments strictly: --as is required, a rejection needs a note', () => {
    expect(parseArgs(['list'])).toEqual({ command: 'list' });
    expect(parseArgs(['approve', '12', '--as', 'Desk@Example.com'])).toEqual({ command: 'approve', id: 12, note: '', as: 'desk@example.com' });
    expect(parseArgs(['reject', '7', '--note', ' Outside the city ', '--as=desk@example.com'])).toEqual({ command: 'reject', id: 7, note: 'Outside the city', as: 'desk@example.com' });
    for (const bad of [[], ['approve'], ['approve', 'x', '--as', 'a@b.ca'], ['delete', '3', '--as', 'a@b.ca'], ['approve', '12'], ['approve', '12', '--as'], ['approve', '12', '--as', 'nobody'], ['reject', '3', '--as', 'a@b.ca', '--colour']]) {
      expect(() => parseArgs(bad)).toThrow(/usage/);
    }
    expect(() => parseArgs(['reject', '3', '--as', 'a@b.ca'])).toThrow('--note: Say why the event is rejected');
    expect(() => parseArgs(['reject', '3', '--as', 'a@b.ca', '--note', '   '])).toThrow('--note: Say why the event is rejected');
    expect(() => parseArgs(['approve', '3', '--as', 'a@b.ca', '--note', 'x'.repeat(2001)])).toThrow('--note: Ensure this field has no more than 2000 characters.');
  });

  test('approving writes the audit log under the --as account and emails the member, as the staff area does', async () => {
    const id = await createEvent(t.ctx.db, { title: 'Command Line Jazz', status: 'pending', submitted_by: submitter.id });
    expect((await runEventsModerate(t.ctx, parseArgs(['list']))).join('\n')).toContain(`#${id}  Command Line Jazz`);
    const sent = t.mailer.sent.length;
    const lines = await runEventsModerate(t.ctx, parseArgs(['approve', String(id), '--as', 'DESK@example.com']));
    expect(lines).toEqual([`#${id} "Command Line Jazz" is now approved by desk@example.com; the member was emailed.`]);
    expect(await t.ctx.db('events').where({ id }).first('status')).toEqual({ status: 'approved' });
    const [entry] = await recentStaffActions(t.ctx.db, { subjectType: 'event', subjectId: id });
    expect(entry).toMatchObject({ staff_id: staff.id, staff_email: staff.email, action: 'event.approve', note: null, detail: { title: 'Command Line Jazz', emailed: submitter.email } });
    expect(t.mailer.sent.slice(sent)).toEqual([expect.objectContaining({ to: submitter.email, subject: 'Your event "Command Line Jazz" is approved' })]);
  });

  test('rejecting keeps, logs and emails the note', async () => {
    const id = await createEvent(t.ctx.db, { title: 'Party in Buffalo', status: 'pending', submitted_by: submitter.id });
    const sent = t.mailer.sent.length;
    await runEventsModerate(t.ctx, parseArgs(['reject', String(id), '--as', staff.email, '--note', 'Buffalo is not in Toronto.']));
    expect(await t.ctx.db('events').where({ id }).first('status', 'moderation_note')).toEqual({ status: 'rejected', moderation_note: 'Buffalo is not in Toronto.' });
    const [entry] = await recentStaffActions(t.ctx.db, { subjectType: 'event', subjectId: id });
    expect(entry).toMatchObject({ staff_id: staff.id, action: 'event.reject', note: 'Buffalo is not in Toronto.' });
    expect(t.mailer.sent.slice(sent)).toEqual([expect.objectContaining({ to: submitter.email, subject: 'Your event "Party in Buffalo" was not approved' })]);
    expect(t.mailer.sent[sent].text).toContain('Buffalo is not in Toronto.');
    // Deciding twice is refused, as in the staff area: no second email, no second entry.
    await expect(runEventsModerate(t.ctx, parseArgs(['approve', String(id), '--as', staff.email]))).rejects.toThrow(`Event #${id} was already moderated (it is rejected)`);
    expect(t.mailer.sent.length).toBe(sent + 1);
    expect(await recentStaffActions(t.ctx.db, { subjectType: 'event', subjectId: id })).toHaveLength(1);
  });

  test('a member who is not staff, or no member at all, cannot act: nothing changes, nobody is emailed', async () => {
    const id = await createEvent(t.ctx.db, { title: 'Not Yet Decided', status: 'pending', submitted_by: submitter.id });
    const sent = t.mailer.sent.length;
    await expect(runEventsModerate(t.ctx, parseArgs(['approve', String(id), '--as', submitter.email]))).rejects.toThrow(`${submitter.email} is not staff`);
    await expect(runEventsModerate(t.ctx, parseArgs(['approve', String(id), '--as', 'nobody@example.com']))).rejects.toThrow('No member with the email nobody@example.com.');
    expect(await t.ctx.db('events').where({ id }).first('status')).toEqual({ status: 'pending' });
    expect(await recentStaffActions(t.ctx.db, { subjectType: 'event', subjectId: id })).toEqual([]);
    expect(t.mailer.sent.length).toBe(sent);
    await expect(runEventsModerate(t.ctx, parseArgs(['approve', '999999', '--as', staff.email]))).rejects.toThrow('No event with id 999999.');
  });
});
