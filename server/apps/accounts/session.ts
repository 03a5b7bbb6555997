import session from 'express-session';
import { ConnectSessionKnexStore } from 'connect-session-knex';
import { Passport } from 'passport';
import type { RequestHandler } from 'express';
import type { Config } from '../../config';
import type { Db } from '../../db';
import { SESSION_VALID_DAYS } from '../../../shared/constants';
import { findMemberById } from './member-queries';

export const SESSION_COOKIE = 'sessionid';
export const SESSION_IDLE_MS = SESSION_VALID_DAYS * 24 * 3600 * 1000;

/**
 * Sessions live in the database so any number of processes can serve a member. No session is
 * made until something is stored in it (saveUninitialized: false), so anonymous pages cost no
 * write; `rolling` renews the 5-day idle window on each request of a signed-in member.
 */
export function sessionMiddleware(config: Config, db: Db): RequestHandler {
  const store = new ConnectSessionKnexStore({
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
