import session from 'express-session';
import { ConnectSessionKnexStore } from 'connect-session-knex';
import { Passport } from 'passport';
import type { RequestHandler } from 'express';
import type { Config } from '../../config';
import type { Db } from '../../db';
import { SESSION_VALID_DAYS } from '../../../shared/constants';
import { findMemberById } from '../profiles/member-queries';

export const SESSION_COOKIE = 'sessionid';
export const SESSION_IDLE_MS = SESSION_VALID_DAYS * 24 * 3600 * 1000;

/**
 * Sessions live in the database so any number of processes can serve a member. No session is
 * made until something is stored in it (saveUninitialized: false), so anonymous pages cost no
 * write; `rolling` renews the 5-day idle window on each request of a signed-in member.
 */
/** How often one process renews a session's expiry in the database (see ThrottledTouchStore). */
export const SESSION_TOUCH_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Performance (a cross-cutting cost, hence here): express-session "touches" the store on every
 * request of a signed-in member, and the knex store's touch is an UPDATE of the session row:
 * a write, a WAL flush and a row lock per request, and a member's concurrent requests (a page
 * and its islands) queue on that lock. At 20 concurrent requests of one member that held
 * GET /api/v2/profiles/me/ to 134 req/s with p99 588 ms. This store renews the row's expiry at
 * most once an hour per session and process; the cookie is still renewed on every response
 * (`rolling`), and the 5-day idle window in the database is at most an hour short of it.
 */
class ThrottledTouchStore extends ConnectSessionKnexStore {
  private readonly touched = new Map<string, number>();

  override async touch(sid: string, sess: session.SessionData, callback?: () => void): Promise<void> {
    const now = Date.now();
    const last = this.touched.get(sid);
    if (last !== undefined && now - last < SESSION_TOUCH_INTERVAL_MS) {
      callback?.();
      return;
    }
    if (this.touched.size >= 50_000) this.touched.clear();
    this.touched.set(sid, now);
    return super.touch(sid, sess, callback);
  }

  override async destroy(sid: string, callback?: (err?: unknown) => void): Promise<number> {
    this.touched.delete(sid);
    return super.destroy(sid, callback);
  }
}

export function sessionMiddleware(config: Config, db: Db): RequestHandler {
  const store = new ThrottledTouchStore({
    knex: db,
    tableName: 'sessions',
    createTable: false,
    cleanupInterval: config.env === 'test' ? 0 : 60 * 60 * 1000,
  });
  return session({
    name: SESSION_COOKIE,
    secret: config.sessionSecret,
    store,
    resave: false,
    saveUninitialized: false,
    rolling: true,
    proxy: undefined,
    cookie: {
      httpOnly: true,
      sameSite: 'lax',
      secure: config.isProduction,
      maxAge: SESSION_IDLE_MS,
      path: '/',
    },
  });
}

/** One Passport per app (the default singleton accumulates serializers across test apps). */
export function createPassport(db: Db): InstanceType<typeof Passport> {
  const passport = new Passport();
  passport.serializeUser((user, done) => done(null, (user as Express.User).id));
  passport.deserializeUser((id: unknown, done) => {
    findMemberById(db, Number(id))
      .then((member) => done(null, member ?? false))
      .catch(done);
  });
  return passport;
}
