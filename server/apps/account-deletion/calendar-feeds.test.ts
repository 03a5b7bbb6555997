import { unzipSync, strFromU8 } from 'fflate';
import type request from 'supertest';
import { createMember, createTestContext, memberAgent, type TestContext } from '../../testing/test-app';
import { MEMBER_EXPORT_PATH } from '../../../shared/member-data';
import { purgeDueAccounts } from './purge-job';

// A member's calendar feeds (issue 28) are their data: they go with the export (Dashboard →
// Your data) and are deleted with the account; another member's stay.

const DAY = 86_400_000;

function binary(res: request.Response, done: (err: Error | null, body: Buffer) => void) {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => done(null, Buffer.concat(chunks)));
}

describe("a member's calendar feeds", () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  test('are exported with their data and deleted with their account', async () => {
    const leaving = await createMember(t.ctx);
    const staying = await createMember(t.ctx);
    const agent = await memberAgent(t, leaving);
    expect((await agent.post('/api/v2/calendar-feeds/').set('X-CSRFToken', agent.csrfToken).send({ url: 'https://venue.example/events.ics' })).status).toBe(201);
    await t.ctx.db('calendar_feeds').insert({ profile_id: staying.id, url: 'https://other.example/events.ics' });

    const res = await agent.get(MEMBER_EXPORT_PATH).buffer(true).parse(binary);
    expect(res.status).toBe(200);
    const files = unzipSync(new Uint8Array(res.body as Buffer));
    const rows = JSON.parse(strFromU8(files['calendar-feeds.json'])) as Array<Record<string, unknown>>;
    expect(rows.map((r) => [r.url, r.status])).toEqual([['https://venue.example/events.ics', 'active']]);
    expect(strFromU8(files['calendar-feeds.csv'])).toContain('https://venue.example/events.ics');

    const requested = new Date();
    const del = await agent.post('/accounts/delete/').type('form').send({ csrfmiddlewaretoken: agent.csrfToken, password: leaving.password, content: 'remove' });
    expect(del.status).toBe(303);
    const purged = await purgeDueAccounts({ ...t.ctx, now: () => new Date(requested.getTime() + 7 * DAY + 60_000) });
    expect(purged.map((p) => p.profileId)).toEqual([leaving.id]);
    expect(await t.ctx.db('calendar_feeds').where({ profile_id: leaving.id })).toHaveLength(0);
    expect(await t.ctx.db('calendar_feeds').where({ profile_id: staying.id })).toHaveLength(1);
  });
});
