import crypto from 'node:crypto';
import type { Knex } from 'knex';
import type { DbHandle } from '../../db';
import { openTestDatabase, testDatabaseUrl, withDatabase } from '../../testing/test-db';
import { createArticleType } from '../../testing/fixtures';
import { httpRequest, type Answer, type ServerProcess } from '../../../test/process/server-process';
import { signUpSecure, startProductionServerProcess, type SecureMember } from '../../../test/process/production-server';
import { CITY_TZ as TZ, cityLocal, minuteAfter, storyDoc as doc } from '../../../test/process/newsroom-schedule';
import { waitFor } from '../../testing/wait-for';
import { STORY_JOBS } from './service';

// Issue 37, "schedule across a restart", with real server processes (the production server,
// `node --import tsx server/index.ts`, as test/process/ starts it) on a PostgreSQL database of
// the test's own. Process A is up while an editor schedules, through the HTTP API, a story's
// publishing and another's unpublishing; A stops (SIGTERM). Process A2 is up while a third
// story is scheduled, and crashes (SIGKILL). While no process is up, the stories' minutes pass;
// then process B starts and, with no request asking, publishes and unpublishes them once each
// (B's job workers run the jobs A and A2 queued; the minute's net job leaves those to them), marking
// the late ones "published N min late" in the staff list and the audit log. With B up, a story
// scheduled for the next minute is published within 60 s of it; and one whose job was lost is
// published by the net under the job queue (the story.schedule-net job, every minute, run by B).
//
// The test cannot wait minutes, so time passes in the database: with no process running, each
// story's scheduled minute and its queued pg-boss job (start_after and the minute in its data)
// are moved the same whole number of minutes into the past, to LATE_MINUTES or a little more
// before now. That is what the database holds when the minute came and went while nothing ran.

jest.setTimeout(300_000);

const LATE_MINUTES = 7;
/** Generous bounds for a busy 2-core machine: each fails the test only if it runs out. */
const WAIT_MS = 120_000;
/** The net job runs within a minute or so of a process's start: waiting for it gets that and more. */
const SWEEP_WAIT_MS = 180_000;


interface JobRow {
  id: string;
  state: string;
  start_after: Date;
  started_on: Date | null;
  completed_on: Date | null;
  data: { id: number; at: string };
}

describe('scheduled publishing across a server restart (real processes, PostgreSQL)', () => {
  let handle: DbHandle;
  let db: Knex;
  let databaseUrl: string;
  const processes: ServerProcess[] = [];
  const sessionSecret = crypto.randomBytes(48).toString('base64url');
  let editor: SecureMember;
  let typeId: number;
  /** The stories, by role in the story of this test. */
  const story = { sigterm: 0, sigkill: 0, unpublish: 0, lostJob: 0, onTime: 0 };
  /** Each story's minute after time "passed" (publish or unpublish). */
  const at: Record<number, Date> = {};
  let b: ServerProcess;
  let bStartedAt = 0;

  const start = async (): Promise<ServerProcess> => {
    const p = await startProductionServerProcess({ databaseUrl, env: { SESSION_SECRET: sessionSecret, TIME_ZONE: TZ, LOG_LEVEL: 'info' } });
    processes.push(p);
    return p;
  };
  const staff = (p: ServerProcess) => ({
    get: (path: string) => json(httpRequest(p.port, `/api/v2/staff/${path}`, { headers: editor.headers })),
    post: (path: string, body: object = {}) =>
      json(httpRequest(p.port, `/api/v2/staff/${path}`, { method: 'POST', headers: editor.jsonHeaders, body: JSON.stringify(body) })),
  });
  const guest = (p: ServerProcess, path: string) => httpRequest(p.port, path, { headers: { 'X-Forwarded-Proto': 'https' } });
  const jobsOf = async (id: number, name: string): Promise<JobRow[]> =>
    (await db.raw(`select id, state, start_after, started_on, completed_on, data from pgboss.job where name = ? and (data->>'id')::int = ? order by created_on`, [name, id])).rows;
  const row = (id: number) => db('articles').where({ id }).first('status', 'path', 'date_published', 'date_updated', 'scheduled_at', 'unpublish_at', 'published_late_minutes');
  const auditOf = (id: number, action: string) => db('staff_audit_log').where({ subject_type: 'story', subject_id: id, action }).orderBy('id');
  const revisionsOf = (id: number, reason: string) => db('article_revisions').where({ article_id: id, reason });
  /** Polls the database (never the server: no request may be what makes a story go live). */
  const until = (what: string, done: () => Promise<boolean>, ms = WAIT_MS) => waitFor(what, done, ms, { everyMs: 100, log: () => `process B's log:\n${b?.output() ?? ''}` });

  async function newStory(p: ServerProcess, name: string): Promise<number> {
    const res = await staff(p).post('stories/', { fields: { name, type_id: typeId, doc: doc(`${name}: the whole story.`), excerpt: 'A dek.' } });
    expect(res.status).toBe(201);
    return res.json.id;
  }

  /** Schedules through the API for a minute ten minutes ahead: answers that minute. */
  async function schedulePublish(p: ServerProcess, id: number): Promise<Date> {
    const when = minuteAfter(10 * 60_000);
    const res = await staff(p).post(`stories/${id}/schedule/`, { publish_at: cityLocal(when) });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ status: 'scheduled', scheduled_at: when.toISOString() });
    return when;
  }

  /**
   * Minutes pass with no process up: the story's minute and its queued job move together the
   * same whole minutes into the past (see the top of the file). Answers the new minute.
   */
  async function letItsMinutePass(id: number, kind: 'publish' | 'unpublish', opts: { jobLost?: boolean } = {}): Promise<Date> {
    const column = kind === 'publish' ? 'scheduled_at' : 'unpublish_at';
    const was = new Date((await db('articles').where({ id }).first(column))[column]);
    const minutes = Math.ceil((was.getTime() - Date.now()) / 60_000) + LATE_MINUTES;
    const past = new Date(was.getTime() - minutes * 60_000);
    await db.transaction(async (trx) => {
      await trx('articles').where({ id }).update({ [column]: past });
      const job = STORY_JOBS[kind];
      const moved = opts.jobLost
        ? // A job that was never queued (a crash between the schedule's commit and its send, or a queue that was not there).
          await trx.raw(`delete from pgboss.job where name = ? and (data->>'id')::int = ? and state = 'created'`, [job, id])
        : await trx.raw(
            `update pgboss.job set start_after = ?, data = jsonb_set(data, '{at}', to_jsonb(?::text)), singleton_key = ?
             where name = ? and (data->>'id')::int = ? and state = 'created' and data->>'at' = ?`,
            [past, past.toISOString(), `${id}:${past.toISOString()}`, job, id, was.toISOString()],
          );
      expect(moved.rowCount).toBe(1);
    });
    at[id] = past;
    return past;
  }

  /** The job ran in B, and the story's change was written while it ran (the job did it, not the sweep). */
  async function expectDoneByItsJobInB(id: number, name: string): Promise<void> {
    // The job is marked completed just after its handler's transaction commits: wait for that.
    await until(`the ${name} job of story ${id} to be marked completed`, async () => (await jobsOf(id, name)).every((j) => j.state === 'completed'));
    const jobs = await jobsOf(id, name);
    expect(jobs.map((j) => j.state)).toEqual(['completed']);
    const [job] = jobs;
    const written = new Date((await row(id)).date_updated).getTime();
    expect(job.started_on!.getTime()).toBeGreaterThanOrEqual(bStartedAt);
    expect(written).toBeGreaterThanOrEqual(job.started_on!.getTime() - 1); // ms against µs
    expect(written).toBeLessThanOrEqual(job.completed_on!.getTime() + 1);
  }

  /**
   * Published late, and it says by how much: N is (the moment of publishing − its minute) in
   * whole minutes, the moment lying between the job's start (or B's) and the row's write.
   */
  async function expectPublishedLate(id: number, from: number): Promise<number> {
    const r = await row(id);
    expect(r.status).toBe('published');
    expect(new Date(r.date_published).toISOString()).toBe(at[id].toISOString());
    const n = r.published_late_minutes as number;
    const low = Math.round((from - at[id].getTime()) / 60_000);
    const high = Math.round((new Date(r.date_updated).getTime() - at[id].getTime()) / 60_000);
    expect(low).toBeGreaterThanOrEqual(LATE_MINUTES);
    expect(n).toBeGreaterThanOrEqual(low);
    expect(n).toBeLessThanOrEqual(high);
    // Once: one publish in the audit log, saying how late, and one revision for it.
    const audit = await auditOf(id, 'story.publish');
    expect(audit).toHaveLength(1);
    expect(audit[0].note).toBe(`Scheduled; published ${n} min late`);
    expect(typeof audit[0].detail === 'string' ? JSON.parse(audit[0].detail) : audit[0].detail).toMatchObject({ path: r.path, late_minutes: n });
    expect(await revisionsOf(id, 'publish')).toHaveLength(1);
    return n;
  }

  beforeAll(async () => {
    handle = await openTestDatabase(); // a fresh migrated database of its own
    db = handle.db;
    const database = (await db.raw('select current_database() as name')).rows[0].name as string;
    databaseUrl = withDatabase(testDatabaseUrl()!, database);
    typeId = await createArticleType(db, 'city-hall', 'City Hall');
  });

  afterAll(async () => {
    // Every process this file started, whatever happened (dispose SIGKILLs one still running).
    await Promise.all(processes.map((p) => p.dispose()));
    await handle?.close();
  });

  test('process A (SIGTERM) and process A2 (SIGKILL): stories scheduled through the API are queued jobs', async () => {
    const a = await start();
    editor = await signUpSecure(a.port);
    await db('profiles').where({ email: editor.email }).update({ newsroom_role: 'editor', full_name: 'Ed Itor' });

    story.sigterm = await newStory(a, 'Council votes to extend the waterfront streetcar');
    const sigtermAt = await schedulePublish(a, story.sigterm);
    story.lostJob = await newStory(a, 'Library branch hours expand this winter');
    await schedulePublish(a, story.lostJob);
    // A story public now, with its unpublishing scheduled.
    story.unpublish = await newStory(a, 'Road closures for the Santa Claus Parade');
    const published = await staff(a).post(`stories/${story.unpublish}/publish/`);
    expect(published.status).toBe(200);
    const unpublishAt = minuteAfter(10 * 60_000);
    const scheduledOff = await staff(a).post(`stories/${story.unpublish}/unpublish/`, { at: cityLocal(unpublishAt) });
    expect(scheduledOff.status).toBe(200);
    expect(scheduledOff.json).toMatchObject({ status: 'published', unpublish_at: unpublishAt.toISOString() });
    expect((await guest(a, published.json.path)).status).toBe(200);

    // Each is a job on the queue, waiting for its minute; nothing public yet.
    expect((await jobsOf(story.sigterm, STORY_JOBS.publish)).map((j) => [j.state, j.start_after.toISOString(), j.data.at])).toEqual([['created', sigtermAt.toISOString(), sigtermAt.toISOString()]]);
    expect((await jobsOf(story.unpublish, STORY_JOBS.unpublish)).map((j) => [j.state, j.start_after.toISOString()])).toEqual([['created', unpublishAt.toISOString()]]);
    expect((await guest(a, '/city-hall/rss.xml')).body).not.toContain('waterfront streetcar');

    a.child.kill('SIGTERM');
    expect(await a.exited).toBe(0);

    const a2 = await start();
    story.sigkill = await newStory(a2, 'Ferry service to the islands resumes');
    const sigkillAt = await schedulePublish(a2, story.sigkill);
    expect((await jobsOf(story.sigkill, STORY_JOBS.publish)).map((j) => [j.state, j.start_after.toISOString()])).toEqual([['created', sigkillAt.toISOString()]]);
    a2.child.kill('SIGKILL'); // a crash: no shutdown of any kind
    expect(await a2.exited).toBeNull();

    // No process is up. The minutes pass.
    await letItsMinutePass(story.sigterm, 'publish');
    await letItsMinutePass(story.sigkill, 'publish');
    await letItsMinutePass(story.unpublish, 'unpublish');
    await letItsMinutePass(story.lostJob, 'publish', { jobLost: true });
    expect(await db('articles').whereIn('id', [story.sigterm, story.sigkill, story.lostJob]).pluck('status')).toEqual(['scheduled', 'scheduled', 'scheduled']);
  });

  test('process B publishes at its start, with no request, once, marked “published N min late” in the list and the audit log', async () => {
    bStartedAt = Date.now();
    b = await start();
    // Only the database is read until both are live: nothing asks B for anything.
    // (The unpublishing too, so that no page read below is made while it is being written.)
    await until('the stories scheduled before the restart to be published (and unpublished) by B', async () =>
      (await db('articles').whereIn('id', [story.sigterm, story.sigkill]).where({ status: 'published' }).pluck('id')).length === 2 &&
      (await row(story.unpublish)).status === 'unpublished');

    const late: Record<number, number> = {};
    for (const id of [story.sigterm, story.sigkill]) {
      await expectDoneByItsJobInB(id, STORY_JOBS.publish);
      late[id] = await expectPublishedLate(id, (await jobsOf(id, STORY_JOBS.publish))[0].started_on!.getTime());
    }

    // Public: its page, its type's page and feed, the site's feed.
    const path = (await row(story.sigterm)).path as string;
    expect(path).toMatch(/^\/city-hall\//);
    const page = await guest(b, path);
    expect(page.status).toBe(200);
    expect(page.body).toContain('Council votes to extend the waterfront streetcar');
    expect((await guest(b, '/city-hall/')).body).toContain('Council votes to extend the waterfront streetcar');
    expect((await guest(b, '/city-hall/rss.xml')).body).toContain('Ferry service to the islands resumes');
    expect((await guest(b, '/rss.xml')).body).toContain('Council votes to extend the waterfront streetcar');

    // The staff list says how late, in the API and on the page.
    const list = await staff(b).get('stories/?limit=50');
    expect(list.status).toBe(200);
    const listed = list.json.results.filter((s) => s.id === story.sigterm || s.id === story.sigkill);
    expect(listed.map((s) => [s.id, s.status, s.published_late_minutes]).sort()).toEqual([[story.sigterm, 'published', late[story.sigterm]], [story.sigkill, 'published', late[story.sigkill]]].sort());
    const listPage = await httpRequest(b.port, '/staff/stories/', { headers: editor.headers });
    expect(listPage.status).toBe(200);
    for (const id of [story.sigterm, story.sigkill]) expect(rowOf(listPage, id)).toContain(`published ${late[id]} min late`);
  });

  test('a scheduled unpublishing whose minute passed while no process was up: public before, gone once B is up', async () => {
    await until('the story scheduled to unpublish to be unpublished by B', async () => (await row(story.unpublish)).status === 'unpublished');
    await expectDoneByItsJobInB(story.unpublish, STORY_JOBS.unpublish);
    const r = await row(story.unpublish);
    expect(r.unpublish_at).toBeNull();
    expect(await auditOf(story.unpublish, 'story.unpublish')).toHaveLength(1);
    expect(await revisionsOf(story.unpublish, 'unpublish')).toHaveLength(1);
    expect((await guest(b, r.path)).status).toBe(404);
    expect((await guest(b, '/city-hall/rss.xml')).body).not.toContain('Santa Claus Parade');
    expect((await guest(b, '/city-hall/')).body).not.toContain('Santa Claus Parade');
  });

  test('with a process up at its minute, a story is published within 60 s of it, with no request, and not marked late', async () => {
    story.onTime = await newStory(b, 'Nathan Phillips Square rink opens for the season');
    const when = minuteAfter(10_000); // the next minute at least 10 s away (scheduling refuses a minute already past)
    const res = await staff(b).post(`stories/${story.onTime}/schedule/`, { publish_at: cityLocal(when) });
    expect(res.status).toBe(200);
    // Its type's page and feed are in B's page cache now; the publish must reach them.
    expect((await guest(b, '/city-hall/rss.xml')).body).not.toContain('Nathan Phillips Square rink');
    expect((await guest(b, '/city-hall/')).body).not.toContain('Nathan Phillips Square rink');

    await until('the story to be published at its minute', async () => (await row(story.onTime)).status === 'published');
    const r = await row(story.onTime);
    const wroteAt = new Date(r.date_updated).getTime();
    expect(wroteAt).toBeGreaterThanOrEqual(when.getTime()); // never early …
    expect(wroteAt - when.getTime()).toBeLessThan(60_000); // … and within 60 s of its minute (issue 37)
    expect(r.published_late_minutes).toBeNull();
    expect(new Date(r.date_published).toISOString()).toBe(when.toISOString());
    await expectDoneByItsJobInB(story.onTime, STORY_JOBS.publish);
    const [job] = await jobsOf(story.onTime, STORY_JOBS.publish);
    expect(job.started_on!.getTime()).toBeGreaterThanOrEqual(when.getTime()); // pg-boss did not start it early
    const audit = await auditOf(story.onTime, 'story.publish');
    expect(audit.map((x) => x.note)).toEqual(['Scheduled']);
    expect(await revisionsOf(story.onTime, 'publish')).toHaveLength(1);
    // Public, caches told (cleared once the publish is announced: waited for, not assumed instant).
    expect((await guest(b, r.path)).status).toBe(200);
    await waitForPage(() => guest(b, '/city-hall/rss.xml'), 'Nathan Phillips Square rink');
    await waitForPage(() => guest(b, '/city-hall/'), 'Nathan Phillips Square rink');
  });

  test('a story whose job was lost is published by the net job in B, late and marked so; every story is still published once', async () => {
    await until('the net job in B to publish the story whose job was lost', async () => (await row(story.lostJob)).status === 'published', SWEEP_WAIT_MS);
    expect(await jobsOf(story.lostJob, STORY_JOBS.publish)).toEqual([]);
    const n = await expectPublishedLate(story.lostJob, bStartedAt);
    expect(rowOf(await httpRequest(b.port, '/staff/stories/', { headers: editor.headers }), story.lostJob)).toContain(`published ${n} min late`);

    // The net has run in B (above): it left the others to their jobs and did not do them again.
    for (const id of [story.sigterm, story.sigkill, story.onTime]) {
      expect(await auditOf(id, 'story.publish')).toHaveLength(1);
      expect(await revisionsOf(id, 'publish')).toHaveLength(1);
    }
    expect(await auditOf(story.unpublish, 'story.unpublish')).toHaveLength(1);
    expect(await revisionsOf(story.unpublish, 'unpublish')).toHaveLength(1);
    expect(b.child.exitCode).toBeNull();
    expect(b.output()).not.toMatch(/"level":(50|60)/); // no error logged by B
  });
});

/** What the staff API answers (a story, or a page of them), as far as this test reads it. */
type ApiBody = Record<string, unknown> & { id: number; path: string; results: Array<{ id: number; status: string; published_late_minutes: number | null }> };

async function json(answer: Promise<Answer>): Promise<{ status: number; json: ApiBody }> {
  const res = await answer;
  let body: unknown;
  try {
    body = JSON.parse(res.body);
  } catch {
    body = { text: res.body };
  }
  return { status: res.status, json: body as ApiBody };
}

/** The story's row in the staff list page. */
function rowOf(page: Answer, id: number): string {
  return new RegExp(`<tr id="story-${id}">[\\s\\S]*?</tr>`).exec(page.body)?.[0] ?? `(no row for story ${id})`;
}

async function waitForPage(get: () => Promise<Answer>, text: string): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const page = await get();
    if (page.body.includes(text)) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for “${text}” on the page (status ${page.status})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
