import crypto from 'node:crypto';
import type { DbHandle } from '../../server/db';
import { openTestDatabase, testDatabaseUrl, withDatabase } from '../../server/testing/test-db';
import { waitFor } from '../../server/testing/wait-for';
import { createJobQueue } from '../../server/jobs/queue';
import { httpRequest, type ServerProcess } from './server-process';
import { signUpSecure, SITE_URL, startProductionServerProcess, type SecureMember } from './production-server';
import { NEWSLETTER_SEND_JOB } from '../../server/apps/newsletters/newsletter-send-job';

// The jobs page as it runs in production (NODE_ENV=production: Secure cookies, CSRF's origin
// checks, the guest page cache in front), in a real server process on PostgreSQL: a job that
// failed in that process's own worker is listed with its error; Retry, a form posted as a
// browser posts it over HTTPS, puts it back, and the page is never kept for anybody else.

jest.setTimeout(180_000);

const PAGE = '/staff/jobs/';
const WAIT_MS = 60_000;

describe('the jobs page in a production server process (PostgreSQL)', () => {
  let handle: DbHandle;
  let server: ServerProcess;
  let admin: SecureMember;
  let jobId: string;

  const state = async (id: string) => ((await handle.db.raw('select state, retry_count from pgboss.job where id = ?', [id])).rows[0] ?? null) as { state: string; retry_count: number } | null;
  const get = (path: string, headers: Record<string, string>) => httpRequest(server.port, path, { headers });

  beforeAll(async () => {
    handle = await openTestDatabase();
    const database = (await handle.db.raw('select current_database() as name')).rows[0].name as string;
    server = await startProductionServerProcess({ databaseUrl: withDatabase(testDatabaseUrl()!, database), env: { SESSION_SECRET: crypto.randomBytes(48).toString('base64url') } });
    admin = await signUpSecure(server.port);
    await handle.db('profiles').where({ email: admin.email }).update({ is_staff: true, newsroom_role: 'administrator' });
    // A newsletter send for a type that does not exist: the server's own worker fails it on its one try.
    const jobs = createJobQueue(handle.db);
    jobId = (await jobs.send(NEWSLETTER_SEND_JOB, { type: 'no-such-newsletter' }, { retryLimit: 0 }))!;
    await jobs.stop();
    await waitFor('the server process to fail the job', async () => (await state(jobId))?.state === 'failed', WAIT_MS, { everyMs: 200, log: server.output });
  });

  afterAll(async () => {
    await server?.dispose();
    await handle?.close();
  });

  test('the administrator sees the failed job with its error, privately', async () => {
    const res = await get(PAGE, admin.headers);
    expect(res.status).toBe(200);
    expect(res.body).toContain(jobId);
    expect(res.body).toContain(`${NEWSLETTER_SEND_JOB}: bad job data`);
    expect(String(res.headers['cache-control'])).toMatch(/private|no-store/);
    // A guest right after is sent to log in: the administrator's page was kept for nobody.
    const guest = await get(PAGE, { 'X-Forwarded-Proto': 'https' });
    expect([guest.status, guest.headers.location]).toEqual([302, `/accounts/login?next=${encodeURIComponent(PAGE)}`]);
  });

  test("Retry, posted as the page's form from the site, puts the job back; from another origin it is refused", async () => {
    const token = admin.jsonHeaders['X-CSRFToken'];
    const form = new URLSearchParams({ csrfmiddlewaretoken: token, queue: NEWSLETTER_SEND_JOB, id: jobId }).toString();
    const post = (origin: string) =>
      httpRequest(server.port, `${PAGE}retry/`, { method: 'POST', headers: { ...admin.headers, Origin: origin, 'Content-Type': 'application/x-www-form-urlencoded' }, body: form });

    const forged = await post('https://elsewhere.example');
    expect(forged.status).toBe(403);
    expect((await state(jobId))?.state).toBe('failed');

    const res = await post(SITE_URL);
    expect([res.status, res.headers.location]).toEqual([303, `${PAGE}?retried=1&queue=${encodeURIComponent(NEWSLETTER_SEND_JOB)}`]);
    // Back in the queue, the worker runs it again (and it fails again: its data is still bad).
    await waitFor('the retried job to run again', async () => (await state(jobId))?.retry_count === 1, WAIT_MS, { everyMs: 200, log: server.output });
    const audit = await handle.db('staff_audit_log').where({ action: 'job.retry' }).select('detail');
    expect(audit).toHaveLength(1);
  });
});
