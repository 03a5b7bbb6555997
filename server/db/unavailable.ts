// Which errors mean "the database is away for now" (a restart, a failover, a terminated
// backend, a network cut) rather than "this query is wrong". Those answer 503 with
// Retry-After instead of 500: the request may well succeed in a few seconds, and a load
// balancer or client should retry rather than report a bug.

/** Socket-level failures from net/pg while connecting or mid-query. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs: class 08 is "connection exception"; 57P01 admin_shutdown (pg_terminate_backend,
 * a fast shutdown), 57P02 crash_shutdown, 57P03 cannot_connect_now (starting up or in
 * recovery); 53300 too_many_connections; 25006 read_only_sql_transaction (a standby during
 * failover).
 */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '25006']);

/** pg and knex say some of it only in words. */
const UNAVAILABLE_MESSAGES = [
  /Connection terminated/i,
  /Connection ended unexpectedly/i,
  /Client has encountered a connection error and is not queryable/i,
  /Client was closed and is not queryable/i,
  /timeout exceeded when trying to connect/i,
  /Timeout acquiring a connection/i,
  /terminating connection due to administrator command/i,
  /the database system is (starting up|shutting down|in recovery mode)/i,
];

function isUnavailableItself(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as { code?: unknown; name?: unknown; message?: unknown };
  // A pool acquire timeout: every connection is stuck on a dead server (or the pool is
  // exhausted, for which 503 is the right answer too).
  if (e.name === 'KnexTimeoutError') return true;
  if (typeof e.code === 'string') {
    if (NETWORK_CODES.has(e.code) || UNAVAILABLE_SQLSTATES.has(e.code) || /^08[0-9A-Z]{3}$/.test(e.code)) return true;
  }
  return typeof e.message === 'string' && UNAVAILABLE_MESSAGES.some((re) => re.test(e.message as string));
}

/** Whether the error, or one it was caused by, means the database cannot be reached right now. */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (isUnavailableItself(e)) return true;
    // AggregateError: pg tries each address of a host name and reports them all.
    const errors = (e as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors.some(isUnavailableItself)) return true;
  }
  return false;
}
