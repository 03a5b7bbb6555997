import session from 'express-session';
import type { Logger } from 'pino';
import type { Db } from '../../db';
import { ServiceUnavailableError } from '../../http/errors';
import type { Member } from '../profiles/member';

/**
 * Where get() leaves the member its session names, read in the same statement: on the
 * session's `passport` object, under a symbol, so it is never written back (JSON and
 * express-session's copy see string keys only). null: the session names nobody active.
 */
export const JOINED_MEMBER = Symbol('joined member');

/** The session's passport part, as get() leaves it. */
export type JoinedPassport = { user?: unknown; [JOINED_MEMBER]?: Member | null };

/** Reads the member with the session: the profile columns passport's deserializer would select. */
export interface MemberJoin {
  columns: readonly string[];
}

type Callback<T> = (err?: unknown, value?: T) => void;

export interface KnexSessionStoreOptions {
  /** How often one process renews a session's expiry in the database (see touch). */
  touchIntervalMs: number;
  /** How often expired rows are deleted; 0 for never (tests). */
  cleanupIntervalMs: number;
  logger: Pick<Logger, 'warn' | 'error'>;
  /** Read the signed-in member in the session's statement (JOINED_MEMBER): one query a request, not two. */
  member?: MemberJoin;
}

const TABLE = 'sessions';
const ONE_DAY_MS = 24 * 3600 * 1000;
/** Bounds the memory of touch throttling; clearing it only costs a few early touches. */
const MAX_TOUCHED = 50_000;

/**
 * express-session's store over the `sessions` table, on both databases.
 *
 * Written here rather than taken from connect-session-knex 5.0.0, which hands a database error
 * to the callback and then rethrows it from the promise express-session ignores (Node died on
 * the unhandled rejection), and whose touch() never calls back on error (the response hung).
 * Here every method reports to its callback only and returns nothing to reject. A failure is a
 * 503 ServiceUnavailableError: a member whose session cannot be read right now is neither
 * signed out nor shown a 500.
 *
 * Performance: express-session touches the store on every request of a signed-in member, and a
 * touch is an UPDATE of the row (a WAL flush and a row lock per request; a member's concurrent
 * requests queue on that lock: 20 concurrent requests of one member held GET
 * /api/v2/profiles/me/ to 134 req/s, p99 588 ms). So a process renews a row's expiry at most
 * once per touchIntervalMs; the cookie is still renewed on every response (`rolling`).
 */
export class KnexSessionStore extends session.Store {
  private readonly touched = new Map<string, number>();

  constructor(
    private readonly db: Db,
    private readonly options: KnexSessionStoreOptions,
  ) {
    super();
    if (options.cleanupIntervalMs > 0) {
      setInterval(() => {
        this.db(TABLE)
          .where('expired', '<', new Date())
          .del()
          .catch((err: unknown) => options.logger.warn({ err }, 'expired sessions not deleted; next time'));
      }, options.cleanupIntervalMs).unref();
    }
  }

  override get(sid: string, callback: Callback<session.SessionData | null>): void {
    this.report(callback, async () => {
      const join = this.options.member;
      if (!join) {
        const row = await this.db(TABLE).select('sess').where('sid', sid).where('expired', '>', new Date()).first();
        return row ? parseSess(row.sess) : null;
      }
      // The member id passport keeps in the session (a number; anything else joins nobody, and
      // passport's own look-up then decides), joined to an active profile.
      const memberId = this.db.raw(`case when (s.sess -> 'passport' ->> 'user') ~ '^[0-9]{1,9}$' then (s.sess -> 'passport' ->> 'user')::integer end`);
      const row = await this.db(`${TABLE} as s`)
        .leftJoin('profiles as p', (on) => on.on('p.id', '=', memberId).andOn('p.is_active', '=', this.db.raw('true')))
        .select(['s.sess', ...join.columns.map((c) => `p.${c} as member_${c}`)])
        .where('s.sid', sid)
        .where('s.expired', '>', new Date())
        .first()
        // Every request of a member runs it: PostgreSQL parses and plans it once per connection
        // (node-postgres names it; PGlite ignores the name). Its SQL is the same every time.
        .options({ name: 'session-with-member' });
      if (!row) return null;
      const sess = parseSess(row.sess);
      const passport = (sess as { passport?: JoinedPassport }).passport;
      if (passport && typeof passport === 'object') {
        const member = row.member_id === null || row.member_id === undefined ? null : (Object.fromEntries(join.columns.map((c) => [c, row[`member_${c}`]])) as unknown as Member);
        Object.defineProperty(passport, JOINED_MEMBER, { value: member, enumerable: false });
      }
      return sess;
    });
  }

  override set(sid: string, sess: session.SessionData, callback?: Callback<void>): void {
    this.report(callback, async () => {
      this.touched.delete(sid);
      await this.db(TABLE)
        .insert({ sid, sess: JSON.stringify(sess), expired: expiryOf(sess) })
        .onConflict('sid')
        .merge(['sess', 'expired']);
    });
  }

  override touch(sid: string, sess: session.SessionData, callback?: Callback<void>): void {
    const now = Date.now();
    const last = this.touched.get(sid);
    if (last !== undefined && now - last < this.options.touchIntervalMs) {
      callback?.();
      return;
    }
    this.report(callback, async () => {
      // An expired session is not brought back to life.
      await this.db(TABLE).where('sid', sid).where('expired', '>', new Date(now)).update({ expired: expiryOf(sess) });
      if (this.touched.size >= MAX_TOUCHED) this.touched.clear();
      this.touched.set(sid, now);
    });
  }

  override destroy(sid: string, callback?: Callback<void>): void {
    this.touched.delete(sid);
    this.report(callback, async () => {
      await this.db(TABLE).where('sid', sid).del();
    });
  }

  /** Runs the work and reports to the callback alone: no promise leaves this store. */
  private report<T>(callback: Callback<T> | undefined, work: () => Promise<T>): void {
    work()
      .then(
        (value) => callback?.(null, value),
        (err: unknown) => callback?.(new ServiceUnavailableError(undefined, { cause: err })),
      )
      // Only a throwing callback gets here; calling it again would run the request twice.
      .catch((err: unknown) => this.options.logger.error({ err }, 'session store callback threw'));
  }
}

function parseSess(sess: unknown): session.SessionData {
  return (typeof sess === 'string' ? JSON.parse(sess) : sess) as session.SessionData;
}

function expiryOf(sess: session.SessionData): Date {
  const expires = sess.cookie?.expires;
  return expires ? new Date(expires) : new Date(Date.now() + ONE_DAY_MS);
}
