import crypto from 'node:crypto';
import type { RequestHandler, Response } from 'express';
import type { Replica, ReadMarker } from './replica';
import { formatLsn, parseLsn } from './lsn';

// Read-your-writes with a replica: whoever has just written reads from the primary until the
// replica has replayed their write, so a favourite never vanishes on the next page. An answer
// to an unsafe request (2xx or 3xx) carries a signed cookie with the primary's WAL position
// after the write (pg_current_wal_lsn()) and an expiry; a request carrying it runs with that
// marker (replica.ts withMarker), and its reads take the primary while the replica's last
// known replay position is short of it.
//
// A cookie, not the session: the visitor's browser brings it to whichever process answers
// next, it costs no session write on the primary for every write, and a guest's write (a
// sign-up) has it too. Signed, so nobody pins their reads to the primary with one of their own
// making; and it lasts only as long as the replica may lag (past that, a lagging replica is not
// read at all), plus two checks.

export const READ_YOUR_WRITES_COOKIE = 'read_your_writes';
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** The primary's position is asked for after the write; an answer is not held longer than this for it. */
const LSN_TIMEOUT_MS = 1_000;

/** How long a marker holds: the lag bound, and two checks (the lag is known to one check, and is measured to one). */
export function markerLifetimeMs(replica: Pick<Replica, 'maxLagMs' | 'checkMs'>): number {
  return replica.maxLagMs + 2 * replica.checkMs;
}

function signature(secret: string, payload: string): string {
  return crypto.createHmac('sha256', secret).update(`read-your-writes:${payload}`).digest('base64url');
}

export function encodeMarker(marker: ReadMarker, secret: string): string {
  const payload = `${marker.lsn === null ? '-' : formatLsn(marker.lsn)}.${marker.untilMs}`;
  return `${payload}.${signature(secret, payload)}`;
}

/** The marker a cookie value carries, when it is ours, unexpired and no longer-lived than a marker is made. */
export function decodeMarker(value: unknown, secret: string, now: number, lifetimeMs: number): ReadMarker | null {
  if (typeof value !== 'string') return null;
  const m = /^([0-9A-F]{1,8}\/[0-9A-F]{1,8}|-)\.(\d{1,15})\.([A-Za-z0-9_-]{43})$/.exec(value);
  if (!m) return null;
  const expected = Buffer.from(signature(secret, `${m[1]}.${m[2]}`));
  if (!crypto.timingSafeEqual(expected, Buffer.from(m[3]))) return null;
  const untilMs = Number(m[2]);
  if (untilMs < now || untilMs > now + lifetimeMs) return null;
  return { lsn: m[1] === '-' ? null : parseLsn(m[1]), untilMs };
}

/**
 * Runs each request with its marker, if it carries one, and marks the answers to unsafe
 * requests. Mounted after cookie-parser and the session (app.ts), so it sees req.cookies and
 * its hold on the answer comes before the session's save.
 */
export function readYourWrites(replica: Replica, opts: { secret: string; secureCookie: boolean }): RequestHandler {
  const lifetimeMs = markerLifetimeMs(replica);
  return (req, res, next) => {
    if (UNSAFE.has(req.method)) markAnswer(res, replica, opts, lifetimeMs);
    const marker = decodeMarker((req.cookies as Record<string, unknown> | undefined)?.[READ_YOUR_WRITES_COOKIE], opts.secret, Date.now(), lifetimeMs);
    if (marker) replica.withMarker(marker, next);
    else next();
  };
}

/** Holds the answer's end until the primary's WAL position is known, and sets the marker cookie with it. */
function markAnswer(res: Response, replica: Replica, opts: { secret: string; secureCookie: boolean }, lifetimeMs: number): void {
  const end = res.end;
  res.end = function (this: Response, ...args: unknown[]) {
    res.end = end;
    if (res.headersSent || res.statusCode >= 400) return end.apply(this, args as never);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), LSN_TIMEOUT_MS)));
    void Promise.race([replica.primaryLsn().catch(() => null), late])
      .then((lsn) => {
        clearTimeout(timer);
        if (!res.headersSent) {
          const marker = { lsn, untilMs: Date.now() + lifetimeMs };
          res.cookie(READ_YOUR_WRITES_COOKIE, encodeMarker(marker, opts.secret), {
            maxAge: lifetimeMs,
            httpOnly: true,
            sameSite: 'lax',
            secure: opts.secureCookie,
            path: '/',
          });
        }
      })
      .finally(() => end.apply(this, args as never));
    return this;
  } as Response['end'];
}
