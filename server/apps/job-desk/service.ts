import type { AppContext } from '../../context';
import { recordStaffAction, type StaffActor } from '../staff-audit/audit-log-queries';
import { jobDeskView, type JobDeskView } from './job-view';

// The administrators' jobs page (issue 40): the job queue as an operator reads it, through the
// queue's own view of pg-boss's tables (server/jobs/queue.ts overview, list, retry), and a
// failed job, or every failed job of a queue, put back to run, each written to the staff audit
// log. The retry is pg-boss's own statement on its own connection, then the log entry: on the
// embedded database a knex transaction holds the only connection, and a queue not opened yet
// in this process would wait for it; a retry that changed nothing is not logged.

/** Each list on the page shows this many jobs at most (the figures above count them all). */
export const JOBS_LISTED = 50;
/** "Retry all failed" puts back at most this many of one queue at once. */
export const RETRY_ALL_MAX = 1000;

export function createJobDeskService(ctx: Pick<AppContext, 'jobs' | 'db'>) {
  return {
    async desk(): Promise<JobDeskView> {
      const queues = await ctx.jobs.overview();
      const [failed, running, late] = await Promise.all([
        ctx.jobs.list({ state: 'failed', limit: JOBS_LISTED }),
        ctx.jobs.list({ state: 'active', limit: JOBS_LISTED }),
        ctx.jobs.list({ state: 'late', limit: JOBS_LISTED }),
      ]);
      return jobDeskView(queues, { failed, running, late });
    },

    /** One failed job back to run; 1, or 0 when it is not failed (any more). */
    async retry(actor: StaffActor, queue: string, id: string): Promise<number> {
      const retried = await ctx.jobs.retry(queue, id);
      if (retried > 0) await recordStaffAction(ctx.db, actor, { action: 'job.retry', subjectType: 'job', subjectId: null, detail: { title: `${queue} ${id}`, queue, id } });
      return retried;
    },

    /** Every failed job of the queue (up to RETRY_ALL_MAX) back to run; how many. */
    async retryFailed(actor: StaffActor, queue: string): Promise<number> {
      const ids = (await ctx.jobs.list({ state: 'failed', name: queue, limit: RETRY_ALL_MAX })).map((j) => j.id);
      const retried = await ctx.jobs.retry(queue, ids);
      if (retried > 0) await recordStaffAction(ctx.db, actor, { action: 'job.retry_failed', subjectType: 'job_queue', subjectId: null, detail: { title: `${queue}: ${retried} failed ${retried === 1 ? 'job' : 'jobs'}`, queue, count: retried } });
      return retried;
    },
  };
}

export type JobDeskService = ReturnType<typeof createJobDeskService>;
