import { createMember, createTestContext, guestAgent, memberAgent, type Agent, type MemberFixture, type TestContext } from '../../testing/test-app';
import { waitFor } from '../../testing/wait-for';
import { recentStaffActions } from '../staff-audit/audit-log-queries';

// The administrators' jobs page in the real app: who reaches it (guests go to login, members
// and staff without the administrator role get a 403 page), what it shows of a job that failed
// through ctx.jobs (its queue, id, escaped data, retries, times, error), and Retry: the job is
// back in the queue, runs again once a worker works, and the audit log says who retried it.

const QUEUE = 'desk-test.flaky';
const PAGE = '/staff/jobs/';

describe('the jobs page /staff/jobs/', () => {
  let t: TestContext;
  let admin: MemberFixture;
  let adminAgent: Agent;
  let editorAgent: Agent;
  let memberAgentValue: Agent;
  let failing = true;
  const runs: string[] = [];
  let ids: string[] = [];

  const state = async (id: string) => ((await t.ctx.db.raw(`SELECT state, retry_count, retry_limit FROM pgboss.job WHERE id = ?`, [id])).rows[0] ?? null) as { state: string; retry_count: number; retry_limit: number } | null;
  const work = async () => {
    await t.ctx.jobs.start();
    await t.ctx.jobs.work(QUEUE, async (_data, job) => {
      runs.push(job.id);
      if (failing) throw new Error('The feed answered 503 <Service Unavailable>');
    }, { pollingIntervalSeconds: 0.5 });
  };

  beforeAll(async () => {
    t = await createTestContext();
    admin = await createMember(t.ctx, { is_staff: true, full_name: 'Ada Admin' });
    await t.ctx.db('profiles').where({ id: admin.id }).update({ newsroom_role: 'administrator' });
    adminAgent = await memberAgent(t, admin);
    const editor = await createMember(t.ctx, { is_staff: true });
    await t.ctx.db('profiles').where({ id: editor.id }).update({ newsroom_role: 'editor' });
    editorAgent = await memberAgent(t, editor);
    memberAgentValue = await memberAgent(t, await createMember(t.ctx));

    // Two jobs that fail for good on their one try, through the app's own queue.
    await work();
    ids = [
      (await t.ctx.jobs.send(QUEUE, { feed: 7, note: '<script>alert(1)</script>' }, { retryLimit: 0 }))!,
      (await t.ctx.jobs.send(QUEUE, { feed: 8 }, { retryLimit: 0 }))!,
    ];
    await waitFor('both jobs to fail', async () => (await t.ctx.jobs.counts(QUEUE)).failed === 2, 20_000);
    // No worker from here until the retry test starts one again.
    await t.ctx.jobs.stop();
  });
  afterAll(() => t.close());

  test('a guest is sent to the login page, and comes back to the jobs page', async () => {
    const guest = guestAgent(t.app);
    const res = await guest.get(PAGE);
    expect([res.status, res.headers.location]).toEqual([302, `/accounts/login?next=${encodeURIComponent(PAGE)}`]);
    for (const p of [`${PAGE}retry/`, `${PAGE}retry-failed/`]) {
      const post = await guest.post(p).type('form').send({ csrfmiddlewaretoken: guest.csrfToken, queue: QUEUE, id: ids[0] });
      expect([p, post.status, post.headers.location]).toEqual([p, 302, `/accounts/login?next=${encodeURIComponent(PAGE)}`]);
    }
    expect(await state(ids[0])).toMatchObject({ state: 'failed' });
  });

  test('a member, and staff who are not administrators, get the 403 page and retry nothing', async () => {
    for (const agent of [memberAgentValue, editorAgent]) {
      const res = await agent.get(PAGE);
      expect(res.status).toBe(403);
      expect(res.type).toBe('text/html');
      expect(res.text).toContain('The jobs page is for administrators.');
      expect(res.text).not.toContain(ids[0]);
      for (const p of [`${PAGE}retry/`, `${PAGE}retry-failed/`]) {
        const post = await agent.post(p).type('form').send({ csrfmiddlewaretoken: agent.csrfToken, queue: QUEUE, id: ids[0] });
        expect([p, post.status]).toEqual([p, 403]);
      }
    }
    expect(await t.ctx.jobs.counts(QUEUE)).toEqual({ failed: 2 });
  });

  test('an administrator sees the queue’s figures and each failed job: queue, id, escaped data, retries, Toronto times, error, a Retry form', async () => {
    const res = await adminAgent.get(PAGE);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.text).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(res.text).toContain('<a class="tabs__link" href="/staff/jobs/" aria-current="page">Jobs</a>');
    // The queue's row: nothing queued or running, two failed, none late, and its Retry all.
    const row = new RegExp(`<code>${QUEUE.replace('.', '\\.')}</code></th>\\s*<td data-label="Queued"><span>0</span></td>\\s*<td data-label="Running">0</td>\\s*<td data-label="Failed"><strong>2</strong></td>\\s*<td data-label="Late">0</td>`);
    expect(res.text).toMatch(row);
    expect(res.text).toContain(`<input type="hidden" name="queue" value="${QUEUE}">`);
    for (const id of ids) {
      expect(res.text).toContain(`id="job-${id}"`);
      expect(res.text).toContain(`<input type="hidden" name="id" value="${id}">`);
    }
    // Data as short JSON, escaped: the page runs none of it.
    expect(res.text).toContain('{&quot;feed&quot;:7,&quot;note&quot;:&quot;&lt;script&gt;alert(1)&lt;/script&gt;&quot;}');
    expect(res.text).not.toContain('<script>alert(1)</script>');
    expect(res.text).toContain('<strong>Error:</strong> The feed answered 503 &lt;Service Unavailable&gt;');
    expect(res.text).toMatch(/<pre class="staff-jobs__stack">Error: The feed answered 503/);
    expect(res.text).toContain('<dt>Retries</dt><dd>0 of 0</dd>');
    expect(res.text).toMatch(/<time datetime="[^"]+Z">[A-Z][a-z]{2} \d{1,2}, \d{4} \d{1,2}:\d{2}:\d{2} [AP]M E[SD]T<\/time>/);
    expect(res.text).toContain('No job is running.');
    expect(res.text).toContain('No job is late.');
  });

  test('a retry needs the CSRF token, and a job id that is one', async () => {
    const missing = await adminAgent.post(`${PAGE}retry/`).type('form').send({ queue: QUEUE, id: ids[0] });
    expect(missing.status).toBe(403);
    expect(missing.text).toContain('CSRF token missing');
    const bad = await adminAgent.post(`${PAGE}retry/`).type('form').send({ csrfmiddlewaretoken: adminAgent.csrfToken, queue: QUEUE, id: "1' OR 1=1" });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('Nothing was retried:</span> Not a job.');
    // A queue name pg-boss would refuse (a 500 found by the fuzz test) is the form's error.
    for (const path of [`${PAGE}retry/`, `${PAGE}retry-failed/`]) {
      const badQueue = await adminAgent.post(path).type('form').send({ csrfmiddlewaretoken: adminAgent.csrfToken, queue: '%', id: ids[0] });
      expect(badQueue.status).toBe(400);
      expect(badQueue.text).toContain('Nothing was retried:</span> Not a queue.');
    }
    expect(await t.ctx.jobs.counts(QUEUE)).toEqual({ failed: 2 });
  });

  test('Retry puts the job back in the queue, in the audit log; a worker runs it again; Retry all failed does the rest', async () => {
    const started = Date.now();
    const res = await adminAgent.post(`${PAGE}retry/`).type('form').send({ csrfmiddlewaretoken: adminAgent.csrfToken, queue: QUEUE, id: ids[0] });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(`${PAGE}?retried=1&queue=${encodeURIComponent(QUEUE)}`);
    // No worker is running: the job waits, due now, with one more try.
    expect(await state(ids[0])).toEqual({ state: 'retry', retry_count: 0, retry_limit: 1 });
    const [entry] = await recentStaffActions(t.ctx.db, { subjectType: 'job' });
    expect(entry).toMatchObject({ staff_id: admin.id, staff_email: admin.email, action: 'job.retry', subject_id: null, detail: { queue: QUEUE, id: ids[0], title: `${QUEUE} ${ids[0]}` } });
    expect(entry.created_at.getTime()).toBeGreaterThanOrEqual(started - 5000);

    const after = await adminAgent.get(res.headers.location);
    expect(after.text).toContain(`1 job of <code>${QUEUE}</code> is back in the queue, to run again now. It is in the audit log.`);
    expect(after.text).not.toContain(`id="job-${ids[0]}"`);
    expect(after.text).toContain(`id="job-${ids[1]}"`);
    expect(after.text).toMatch(new RegExp(`<code>${QUEUE.replace('.', '\\.')}</code></th>\\s*<td data-label="Queued"><span>1</span></td>`));

    // Pressed again (a second tab, a double click): nothing left to retry, and no second entry.
    const again = await adminAgent.post(`${PAGE}retry/`).type('form').send({ csrfmiddlewaretoken: adminAgent.csrfToken, queue: QUEUE, id: ids[0] });
    expect(again.headers.location).toBe(`${PAGE}?retried=0&queue=${encodeURIComponent(QUEUE)}`);
    expect((await adminAgent.get(again.headers.location)).text).toContain('Nothing was retried in');
    expect(await recentStaffActions(t.ctx.db, { subjectType: 'job' })).toHaveLength(1);

    // A worker again, and the trouble fixed: the retried job runs, and completes.
    failing = false;
    runs.length = 0;
    await work();
    await waitFor('the retried job to complete', async () => (await state(ids[0]))?.state === 'completed', 20_000);
    expect(runs).toEqual([ids[0]]);

    const all = await adminAgent.post(`${PAGE}retry-failed/`).type('form').send({ csrfmiddlewaretoken: adminAgent.csrfToken, queue: QUEUE });
    expect(all.headers.location).toBe(`${PAGE}?retried=1&queue=${encodeURIComponent(QUEUE)}`);
    await waitFor('the other job to complete', async () => (await t.ctx.jobs.counts(QUEUE)).completed === 2, 20_000);
    expect(runs).toEqual([ids[0], ids[1]]);
    const [bulk] = await recentStaffActions(t.ctx.db, { subjectType: 'job_queue' });
    expect(bulk).toMatchObject({ staff_id: admin.id, action: 'job.retry_failed', detail: { queue: QUEUE, count: 1 } });
    const audit = await adminAgent.get('/staff/audit/');
    expect(audit.text).toContain('<code>job.retry</code>');
    expect(audit.text).toContain('<code>job.retry_failed</code>');
    const page = await adminAgent.get(PAGE);
    expect(page.text).toContain('No failed jobs.');
  });
});
