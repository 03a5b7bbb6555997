import type { QueuedJob, QueueOverview } from '../../jobs/queue';
import { truncate } from '../../../shared/format/text';

// The jobs page's rows as the template prints them: a job's data as short JSON, its error as
// pg-boss kept it (a message, and the stack behind a disclosure), its retries, and how late it
// is in words. Times stay Dates: the template prints them in the city's time zone.

/** A job's data on the page: JSON cut to this many characters. */
export const DATA_CHARS = 160;
/** A failed job's stack (or other output) on the page: at most this many characters. */
export const DETAIL_CHARS = 4000;

export interface JobError {
  message: string;
  /** The stack, or the whole output when it has no message; '' when there is nothing more. */
  detail: string;
}

/** A queued job as the page prints it: the queue's own fields, with data, times and error in words. */
export type JobRowView = Omit<QueuedJob, 'name' | 'data' | 'expireInSeconds' | 'overdueSeconds' | 'output'> & {
  queue: string;
  data: string;
  /** '15 min': how long it may run before pg-boss fails it. */
  expireIn: string;
  /** '3 min': past its start time (waiting) or its expiry (running); '' when neither. */
  overdue: string;
  error: JobError | null;
};

export interface JobDeskView {
  queues: QueueOverview[];
  totals: Omit<QueueOverview, 'name'>;
  failed: JobRowView[];
  running: JobRowView[];
  late: JobRowView[];
}

/** '45 s', '12 min', '3 h 5 min', '4 days'. */
export function durationText(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 48) return m % 60 ? `${h} h ${m % 60} min` : `${h} h`;
  return `${Math.floor(h / 24)} days`;
}

/** Any value as JSON, cut for a table cell ('null' for none). */
export function shortJson(value: unknown, chars = DATA_CHARS): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? 'null';
  } catch {
    text = String(value);
  }
  return truncate(text, chars);
}

/**
 * A failed job's output as an error: pg-boss keeps a handler's throw as { name, message, stack },
 * its own expiry as { value: { message } }, and whatever else a fail() was given as it was.
 */
export function jobError(output: unknown): JobError | null {
  if (output === null || output === undefined) return null;
  const o = (typeof output === 'object' ? output : { value: output }) as Record<string, unknown>;
  const inner = o.value && typeof o.value === 'object' ? (o.value as Record<string, unknown>) : null;
  const message = typeof o.message === 'string' ? o.message : typeof inner?.message === 'string' ? inner.message : '';
  const name = typeof o.name === 'string' && o.name !== 'Error' ? `${o.name}: ` : '';
  if (!message) return { message: 'No message', detail: truncate(JSON.stringify(output, null, 2) ?? '', DETAIL_CHARS) };
  const stack = typeof o.stack === 'string' ? o.stack : '';
  return { message: `${name}${message}`, detail: truncate(stack, DETAIL_CHARS) };
}

export function jobRowView(job: QueuedJob): JobRowView {
  const { name, data, expireInSeconds, overdueSeconds, output, ...same } = job;
  return {
    ...same,
    queue: name,
    data: shortJson(data),
    expireIn: durationText(expireInSeconds),
    overdue: overdueSeconds > 0 ? durationText(overdueSeconds) : '',
    error: job.state === 'failed' ? jobError(output) : null,
  };
}

export function jobDeskView(queues: QueueOverview[], lists: { failed: QueuedJob[]; running: QueuedJob[]; late: QueuedJob[] }): JobDeskView {
  const totals = { queued: 0, scheduled: 0, running: 0, failed: 0, late: 0 };
  for (const q of queues) for (const k of Object.keys(totals) as Array<keyof typeof totals>) totals[k] += q[k];
  return {
    queues,
    totals,
    failed: lists.failed.map(jobRowView),
    running: lists.running.map(jobRowView),
    late: lists.late.map(jobRowView),
  };
}
