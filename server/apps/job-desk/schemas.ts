import { z } from 'zod';

// What the jobs page's forms send (and its notice after one). Every form also carries
// csrfmiddlewaretoken, which the CSRF middleware checks before any of these is read.

// A queue's name as pg-boss allows it: letters, digits, _ - . and /.
const queue = z.string({ message: 'Name a queue.' }).min(1, 'Name a queue.').max(200, 'Not a queue.').regex(/^[\w.\-/]+$/, 'Not a queue.');
const jobId = z.string({ message: 'Not a job.' }).trim().toLowerCase().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'Not a job.');

/** POST /staff/jobs/retry/: one failed job, by its queue and id. */
export const retryJobFormSchema = z.object({ queue, id: jobId });

/** POST /staff/jobs/retry-failed/: every failed job of one queue. */
export const retryFailedFormSchema = z.object({ queue });

/** /staff/jobs/?retried=N&queue=…: what the last retry did (N jobs back in the queue). */
export const retryNoticeSchema = z.object({
  retried: z.string().regex(/^\d{1,5}$/).transform(Number),
  queue: z.string().min(1).max(200),
});
