import { createTestContext, createMember, type TestContext } from '../../testing/test-app';
import { recentStaffActions, recordStaffAction } from './audit-log-queries';

describe('staff audit log', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  it('keeps who did what to which object, newest first', async () => {
    const staff = await createMember(t.ctx, { is_staff: true });
    const actor = { id: staff.id, email: staff.email };
    await recordStaffAction(t.ctx.db, actor, { action: 'event.approve', subjectType: 'event', subjectId: 7 });
    await recordStaffAction(t.ctx.db, actor, { action: 'event.reject', subjectType: 'event', subjectId: 8, note: 'No date', detail: { emailed: 'a@b.c' } });
    const [latest, first] = await recentStaffActions(t.ctx.db, { subjectType: 'event' });
    expect(latest).toMatchObject({ staff_id: staff.id, staff_email: staff.email, action: 'event.reject', subject_id: 8, note: 'No date', detail: { emailed: 'a@b.c' } });
    expect(latest.created_at).toBeInstanceOf(Date);
    expect(first).toMatchObject({ action: 'event.approve', subject_id: 7, note: null, detail: null });
    expect(await recentStaffActions(t.ctx.db, { subjectType: 'event', subjectId: 7 })).toHaveLength(1);
  });

  it('writes nothing when the action it belongs to rolls back', async () => {
    const staff = await createMember(t.ctx, { is_staff: true });
    await expect(
      t.ctx.db.transaction(async (trx) => {
        await recordStaffAction(trx, { id: staff.id, email: staff.email }, { action: 'photo.remove', subjectType: 'photo', subjectId: 99 });
        throw new Error('the removal failed');
      }),
    ).rejects.toThrow('the removal failed');
    expect(await recentStaffActions(t.ctx.db, { subjectType: 'photo' })).toEqual([]);
  });
});
