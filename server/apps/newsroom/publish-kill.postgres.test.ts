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

// Issue 40, "jobs on a real queue": a process killed (SIGKILL) in the middle of a job, and
// another process finishes it, once. Process A takes a story's publishing job and is stopped
// half-way: the test holds the story's row (as a long write would), so A's job has started and
// waits inside its transaction; then A is killed. Nothing of the half-done job is written (its
// transaction dies with its connection). Process B starts; the job, still marked running by a
// process that is gone, expires (the queue's 60 s for story jobs), B's maintenance retries it,
// and B publishes the story: one publish, one revision, one audit entry, one completed job.

jest.setTimeout(300_000);

/** Generous bounds for a busy 2-core machine: each fails the test only if it runs out. */
const WAIT_MS = 60_000;
/** The job's expiry (60 s) + maintenance (every 30 s) + the retry's delay, with room to spare. */
const RECOVERY_WAIT_MS = 240_000;


describe('a process killed in the middle of a publishing job (real processes, PostgreSQL)', () => {
  let handle: DbHandle;
  let db: Knex;
  let databaseUrl: string;
  const processes: ServerProcess[] = [];
  const sessionSecret = crypto.randomBytes(48).toString('base64url');
  let editor: SecureMember;
  let lock: Knex.Transaction | null = null;

  const start = async (): Promise<ServerProcess> => {
    const p = await startProductionServerProcess({ databaseUrl, env: { SESSION_SECRET: sessionSecret, TIME_ZONE: TZ, LOG_LEVEL: 'info' } });
    processes.push(p);
    return p;
  };
  const post = async (p: ServerProcess, path: string, body: object): Promise<{ status: number; json: { id?: number } | null }> => {
    const res: Answer = await httpRequest(p.port, `/api/v2/staff/${path}`, { method: 'POST', headers: editor.jsonHeaders, body: JSON.stringify(body) });
    return { status: res.status, json: res.body ? JSON.parse(res.body) : null };
  };
  const jobsOf = async (id: number) =>
    (await db.raw(`select id, state, retry_count, started_on from pgboss.job where name = ? and (data->>'id')::int = ? order by created_on`, [STORY_JOBS.publish, id])).rows as Array<{
      id: string;
      state: string;
      retry_count: number;
      started_on: Date | null;
    }>;
  const until = (what: string, done: () => Promise<boolean>, ms: number, log?: () => string) => waitFor(what, done, ms, { everyMs: 100, log });

  beforeAll(async () => {
    handle = await openTestDatabase();
    db = handle.db;
    const database = (await db.raw('select current_database() as name')).rows[0].name as string;
    databaseUrl = withDatabase(testDatabaseUrl()!, database);
  });

  afterAll(async () => {
    await lock?.rollback().catch(() => undefined);
    await Promise.all(processes.map((p) => p.dispose()));
    await handle?.close();
  });

  test('A is killed while its job waits half-way; B finishes the job and the story is published once', async () => {
    const typeId = await createArticleType(db, 'city-hall', 'City Hall');
    const a = await start();
    editor = await signUpSecure(a.port);
    await db('profiles').where({ email: editor.email }).update({ newsroom_role: 'editor', full_name: 'Ed Itor' });
    const created = await post(a, 'stories/', { fields: { name: 'Transit fares frozen for 2027', type_id: typeId, doc: doc('The whole story.'), excerpt: 'A dek.' } });
    expect(created.status).toBe(201);
    const id = created.json!.id as number;
    const scheduled = await post(a, `stories/${id}/schedule/`, { publish_at: cityLocal(minuteAfter(10 * 60_000)) });
    expect(scheduled.status).toBe(200);
    const [queued] = await jobsOf(id);
    expect(queued.state).toBe('created');

    // Its minute comes now, while the test holds the story's row: the row's new minute is written
    // in the test's open transaction (A's job waits for it), the job's in the queue (A takes it).
    const past = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 5 * 60_000);
    lock = await db.transaction();
    await lock('articles').where({ id }).update({ scheduled_at: past });
    const moved = await db.raw(
      `update pgboss.job set start_after = now(), data = jsonb_set(data, '{at}', to_jsonb(?::text)), singleton_key = ?
       where name = ? and (data->>'id')::int = ? and state = 'created'`,
      [past.toISOString(), `${id}:${past.toISOString()}`, STORY_JOBS.publish, id],
    );
    expect(moved.rowCount).toBe(1);

    // A has taken the job and its transaction waits on the row: in the middle of the job.
    await until(
      'A to start the job and wait on the story’s row',
      async () =>
        (await jobsOf(id))[0].state === 'active' &&
        Number((await db.raw(`select count(*) as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`)).rows[0].n) >= 1,
      WAIT_MS,
      a.output,
    );
    a.child.kill('SIGKILL');
    expect(await a.exited).toBeNull();
    await lock.commit();
    lock = null;

    // Nothing of A's half-done job was written; the queue still thinks it runs.
    const afterKill = await db('articles').where({ id }).first('status');
    expect(afterKill.status).toBe('scheduled');
    expect((await jobsOf(id)).map((j) => j.state)).toEqual(['active']);

    const b = await start();
    await until('B to publish the story through the job A left', async () => (await jobsOf(id)).every((j) => j.state === 'completed'), RECOVERY_WAIT_MS, b.output);

    const jobs = await jobsOf(id);
    expect(jobs).toHaveLength(1);
    expect(jobs[0].retry_count).toBeGreaterThanOrEqual(1); // run twice: killed, then finished
    const story = await db('articles').where({ id }).first('status', 'date_published', 'published_late_minutes');
    expect(story.status).toBe('published');
    expect(new Date(story.date_published).toISOString()).toBe(past.toISOString());
    expect(story.published_late_minutes).toBeGreaterThanOrEqual(5);
    // Once: one publish in the audit log and one revision for it.
    expect(await db('staff_audit_log').where({ subject_type: 'story', subject_id: id, action: 'story.publish' })).toHaveLength(1);
    expect(await db('article_revisions').where({ article_id: id, reason: 'publish' })).toHaveLength(1);
  });
});
