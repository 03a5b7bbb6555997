import request from 'supertest';
import { createMember, createTestContext, guestAgent, memberAgent, type Agent, type TestContext } from '../../testing/test-app';
import { createEvent } from '../../testing/fixtures';
import { escapeText, foldLine, renderIcs } from './ics';

// The projects' testTimeout in jest.config.ts is not applied (jest reads it only at the top
// level); a fresh database per file and image work need more than 5 s on a busy machine.
jest.setTimeout(60_000);

/** Unfolds and splits a feed into its content lines. */
const contentLines = (ics: string) => ics.replace(/\r\n /g, '').split('\r\n');

describe('private ICS feed of saved events', () => {
  let t: TestContext;
  let member: Agent;
  let memberId: number;

  beforeAll(async () => {
    t = await createTestContext();
    const m = await createMember(t.ctx);
    memberId = m.id;
    member = await memberAgent(t, m);
  });
  afterAll(() => t.close());

  const rotate = (agent: Agent) => agent.post('/api/v2/profiles/me/ics-feed/').set('X-CSRFToken', agent.csrfToken);

  test('a member creates, reads, rotates and revokes the feed URL', async () => {
    expect((await member.get('/api/v2/profiles/me/ics-feed/')).body).toEqual({ url: null, webcal_url: null });
    const created = await rotate(member);
    expect(created.status).toBe(201);
    expect(created.body.url).toMatch(new RegExp(`^${t.config.site.url}/calendar/[A-Za-z0-9_-]{43}\\.ics$`));
    expect(created.body.webcal_url).toBe(created.body.url.replace(/^http:/, 'webcal:'));
    expect((await member.get('/api/v2/profiles/me/ics-feed/')).body.url).toBe(created.body.url);
    const path = new URL(created.body.url).pathname;
    expect((await request(t.app).get(path)).status).toBe(200);

    const rotated = await rotate(member);
    expect(rotated.body.url).not.toBe(created.body.url);
    expect((await request(t.app).get(path)).status).toBe(404);
    const newPath = new URL(rotated.body.url).pathname;
    expect((await request(t.app).get(newPath)).status).toBe(200);

    const revoked = await member.delete('/api/v2/profiles/me/ics-feed/').set('X-CSRFToken', member.csrfToken);
    expect(revoked.status).toBe(204);
    expect((await request(t.app).get(newPath)).status).toBe(404);
  });

  test('guests cannot manage a feed; unknown and malformed tokens are 404', async () => {
    expect((await request(t.app).get('/api/v2/profiles/me/ics-feed/')).status).toBe(401);
    expect((await rotate(guestAgent(t.app))).status).toBe(401);
    expect((await request(t.app).get(`/calendar/${'a'.repeat(43)}.ics`)).status).toBe(404);
    expect((await request(t.app).get('/calendar/short.ics')).status).toBe(404);
  });

  test('lists the saved events’ occurrences in UTC, all-day ones as dates, and nothing else', async () => {
    const concert = await createEvent(t.ctx.db, {
      title: 'Jazz; Blues, and more',
      schedule: { schedule_type: 'single_day', start_date: '2030-07-10', start_time: '19:00', end_time: '21:00' },
    });
    const weekly = await createEvent(t.ctx.db, {
      title: 'Farmers market',
      schedule: { schedule_type: 'weekly', start_date: '2030-10-28', end_date: '2030-11-08', weekdays: [1], start_time: '09:00', end_time: '13:00' },
    });
    const allDay = await createEvent(t.ctx.db, { title: 'Canada Day', schedule: { schedule_type: 'single_day', start_date: '2030-07-01', all_day: true } });
    const unsaved = await createEvent(t.ctx.db, { title: 'Not saved' });
    const pending = await createEvent(t.ctx.db, { title: 'Pending one', status: 'pending' });
    for (const id of [concert, weekly, allDay, pending]) await t.ctx.db('event_bookmarks').insert({ profile_id: memberId, event_id: id });
    const other = await createMember(t.ctx);
    await t.ctx.db('event_bookmarks').insert({ profile_id: other.id, event_id: unsaved });

    const link = await rotate(member);
    const res = await request(t.app).get(new URL(link.body.url).pathname);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(res.headers['cache-control']).toMatch(/^private/);
    const lines = contentLines(res.text);
    expect(lines[0]).toBe('BEGIN:VCALENDAR');
    expect(lines).toContain('X-WR-TIMEZONE:America/Toronto');
    expect(res.text).not.toContain('Not saved');
    expect(res.text).not.toContain('Pending one');
    expect(lines).toContain('SUMMARY:Jazz\\; Blues\\, and more');
    // 7 pm EDT (UTC-4) in July is 23:00 UTC.
    expect(lines).toContain('DTSTART:20300710T230000Z');
    expect(lines).toContain('DTEND:20300711T010000Z');
    // The weekly market on Mondays: 9 am EDT on 28 October, 9 am EST (UTC-5) after the DST change.
    expect(lines).toContain('DTSTART:20301028T130000Z');
    expect(lines).toContain('DTSTART:20301104T140000Z');
    expect(lines.filter((l) => l === 'SUMMARY:Farmers market')).toHaveLength(2);
    expect(lines).toContain('DTSTART;VALUE=DATE:20300701');
    expect(lines).toContain('DTEND;VALUE=DATE:20300702');
    expect(new Set(lines.filter((l) => l.startsWith('UID:'))).size).toBe(4);
    expect(res.text.split('\r\n').every((l) => Buffer.byteLength(l) <= 75)).toBe(true);
  });

  test('text is escaped and long lines fold without splitting characters', () => {
    expect(escapeText('a\\b;c,d\ne')).toBe('a\\\\b\\;c\\,d\\ne');
    const long = `DESCRIPTION:${'é'.repeat(100)}`;
    const folded = foldLine(long);
    for (const line of folded.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    expect(folded.replace(/\r\n /g, '')).toBe(long);
    const ics = renderIcs({ prodId: '-//x//y//EN', name: 'n', timeZone: 'America/Toronto', now: new Date(0), events: [] });
    expect(ics.endsWith('END:VCALENDAR\r\n')).toBe(true);
  });
});
