import { unzipSync, strFromU8 } from 'fflate';
import type request from 'supertest';
import { createMember, createTestContext, guestAgent, memberAgent, type Agent, type TestContext } from '../../testing/test-app';
import { createListing } from '../../testing/fixtures';
import { MEMBER_EXPORT_PATH } from '../../../shared/member-data';
import { purgeDueAccounts } from './purge-job';

// A member's accessibility reports (issue 27) are their data: they go with the export
// (Dashboard → Your data) and are deleted with the account, the place's counts recounted
// without them while other members' reports stay.

const DAY = 86_400_000;
const send = (agent: Agent, path: string, body: object) => agent.post(path).set('X-CSRFToken', agent.csrfToken).send(body);

function binary(res: request.Response, done: (err: Error | null, body: Buffer) => void) {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => done(null, Buffer.concat(chunks)));
}

describe("a member's accessibility reports", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  test('are exported with their data and deleted with their account, recounting the place', async () => {
    const listing = await createListing(t.ctx.db, { name: 'Export Cafe' });
    const leaving = await createMember(t.ctx);
    const staying = await createMember(t.ctx);
    const leavingAgent = await memberAgent(t, leaving);
    const stayingAgent = await memberAgent(t, staying);
    const path = `/api/v2/listings/${listing}/accessibility/`;
    expect((await send(leavingAgent, path, { attribute: 'step_free_entrance', answer: 'yes', note: 'Ramp at the side door' })).status).toBe(201);
    expect((await send(leavingAgent, path, { attribute: 'quiet_hours', answer: 'no' })).status).toBe(201);
    expect((await send(stayingAgent, path, { attribute: 'step_free_entrance', answer: 'yes', note: 'Someone else' })).status).toBe(201);

    const res = await leavingAgent.get(MEMBER_EXPORT_PATH).buffer(true).parse(binary);
    expect(res.status).toBe(200);
    const files = unzipSync(new Uint8Array(res.body as Buffer));
    const rows = JSON.parse(strFromU8(files['accessibility-reports.json'])) as Array<Record<string, unknown>>;
    expect(rows.map((r) => [r.attribute, r.answer, r.note, r.listing_name])).toEqual([
      ['step_free_entrance', 'yes', 'Ramp at the side door', 'Export Cafe'],
      ['quiet_hours', 'no', '', 'Export Cafe'],
    ]);
    expect(strFromU8(files['accessibility-reports.csv'])).toContain('Ramp at the side door');
    expect(strFromU8(files['accessibility-reports.csv'])).not.toContain('Someone else');

    const summary = () => guestAgent(t.app).get(path).then((r) => Object.fromEntries((r.body.attributes as Array<{ attribute: string; yes_count: number; no_count: number }>).map((a) => [a.attribute, [a.yes_count, a.no_count]])));
    expect(await summary()).toMatchObject({ step_free_entrance: [2, 0], quiet_hours: [0, 1] });

    const requested = new Date();
    const del = await leavingAgent.post('/accounts/delete/').type('form').send({ csrfmiddlewaretoken: leavingAgent.csrfToken, password: leaving.password, content: 'remove' });
    expect(del.status).toBe(303);
    const purged = await purgeDueAccounts({ ...t.ctx, now: () => new Date(requested.getTime() + 7 * DAY + 60_000) });
    expect(purged.map((p) => p.profileId)).toEqual([leaving.id]);

    expect(await t.ctx.db('accessibility_reports').where({ profile_id: leaving.id })).toHaveLength(0);
    expect(await t.ctx.db('accessibility_reports').where({ profile_id: staying.id })).toHaveLength(1);
    expect(await summary()).toMatchObject({ step_free_entrance: [1, 0], quiet_hours: [0, 0] });
    expect(await t.ctx.db('listing_accessibility').where({ listing_id: listing, attribute: 'quiet_hours' })).toHaveLength(0);
  });
});
