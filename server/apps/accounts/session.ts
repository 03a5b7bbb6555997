import session from 'express-session';
import { Passport } from 'passport';
import type { IncomingMessage } from 'node:http';
import type { Request, RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { Config } from '../../config';
import type { Db } from '../../db';
import { SESSION_VALID_DAYS } from '../../../shared/constants';
import { findMemberById, MEMBER_COLUMNS } from '../profiles/member-queries';
import { JOINED_MEMBER, KnexSessionStore, type JoinedPassport } from './session-store-queries';

export const SESSION_COOKIE = 'sessionid';
export const SESSION_IDLE_MS = SESSION_VALID_DAYS * 24 * 3600 * 1000;

/** How often one process renews a session's expiry in the database (see KnexSessionStore). */
export const SESSION_TOUCH_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Sessions live in the database so any number of processes can serve a member. No session is
 * made until something is stored in it (saveUninitialized: false), so anonymous pages cost no
 * write; `rolling` renews the 5-day idle window on each request of a signed-in member.
 */
export function sessionMiddleware(config: Config, db: Db, logger: Logger): RequestHandler {
  const store = new KnexSessionStore(db, {
    touchIntervalMs: SESSION_TOUCH_INTERVAL_MS,
    cleanupIntervalMs: config.env === 'test' ? 0 : 60 * 60 * 1000,
    logger,
    member: { columns: MEMBER_COLUMNS },
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
  passport.deserializeUser((req: IncomingMessage, id: unknown, done: (err: unknown, user?: Express.User | false) => void) => {
    // The store read the member with the session (one statement); a session set in this very
    // request (a sign-in) has no joined member yet, and is looked up.
    const sess = (req as Partial<Pick<Request, 'session'>>).session as { passport?: JoinedPassport } | undefined;
    const joined = sess?.passport?.[JOINED_MEMBER];
    if (joined === null) return done(null, false);
    if (joined && joined.id === Number(id)) return done(null, joined);
    findMemberById(db, Number(id))
      .then((member) => done(null, member ?? false))
      .catch(done);
  });
  return passport;
}
