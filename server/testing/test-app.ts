import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import type { Express } from 'express';
import request from 'supertest';
import { sign } from 'cookie-signature';
import { loadConfig, type Config, type Env } from '../config';
import { createApp } from '../app';
import type { AppContext } from '../context';
import type { MailMessage, Mailer } from '../mail/mailer';
import { hashPassword } from '../apps/accounts/passwords';
import { SESSION_COOKIE, SESSION_IDLE_MS } from '../apps/accounts/session';
import { CSRF_COOKIE } from '../http/csrf';
import { openTestDatabase } from './test-db';
import { buildAppContext } from '../app-context';

export interface TestMailer extends Mailer {
  sent: MailMessage[];
}

export interface TestContext {
  ctx: AppContext;
  app: Express;
  mailer: TestMailer;
  config: Config;
  tmpDir: string;
  /** Builds another app on the same database (for example with other flags). */
  rebuild(env?: Env, overrides?: Partial<Config>): Express;
  close(): Promise<void>;
}

/**
 * A fresh database and app for one test file: call in beforeAll, close in afterAll.
 * `env` takes the same variables as the real environment.
 */
export async function createTestContext(env: Env = {}, overrides: Partial<Config> = {}): Promise<TestContext> {
  const tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'guide-test-'));
  const build = (e: Env, o: Partial<Config>) =>
    loadConfig({ NODE_ENV: 'test', DATA_DIR: tmpDir, RATE_LIMITS: 'false', ...e }, o);
  const config = build(env, overrides);
  const handle = await openTestDatabase();
  const sent: MailMessage[] = [];
  const mailer: TestMailer = {
    sent,
    async send(message) {
      sent.push(message);
    },
  };
  // Media where the config says (MEDIA_STORE): DATA_DIR/media, unless a test asks for a bucket.
  const ctx = buildAppContext(config, handle, { mailer });
  const app = createApp(ctx, { watchManifest: false });
  return {
    ctx,
    app,
    mailer,
    config,
    tmpDir,
    rebuild: (e: Env = {}, o: Partial<Config> = {}) => createApp({ ...ctx, config: build({ ...env, ...e }, { ...overrides, ...o }) }),
    close: async () => {
      await ctx.jobs.stop(); // nothing to do unless the test started workers
      await ctx.sharedStories.close(); // nothing to do unless a test opened a websocket
      await handle.close();
      fs.rmSync(tmpDir, { recursive: true, force: true });
    },
  };
}

let memberCounter = 0;

export interface MemberFixture {
  id: number;
  email: string;
  password: string;
}

/** Inserts a member with a known password (hashing for real, as login will verify it). */
export async function createMember(ctx: AppContext, fields: Partial<{ email: string; password: string; full_name: string; is_staff: boolean }> = {}): Promise<MemberFixture> {
  memberCounter += 1;
  const email = (fields.email ?? `member${memberCounter}-${crypto.randomBytes(3).toString('hex')}@example.com`).toLowerCase();
  const password = fields.password ?? 'correct horse battery staple';
  const [row] = await ctx.db('profiles')
    .insert({ email, password_hash: await hashPassword(password), full_name: fields.full_name ?? `Member ${memberCounter}`, is_staff: fields.is_staff ?? false })
    .returning('id');
  return { id: Number(row.id ?? row), email, password };
}

export type Agent = ReturnType<typeof request.agent> & { csrfToken: string };

/**
 * A supertest agent with a CSRF cookie already set; unsafe requests send the token with
 * `.set('X-CSRFToken', agent.csrfToken)` (API) or as the `csrfmiddlewaretoken` form field.
 */
export function guestAgent(app: Express): Agent {
  const agent = request.agent(app) as Agent;
  agent.csrfToken = crypto.randomBytes(32).toString('base64url');
  agent.jar.setCookie(`${CSRF_COOKIE}=${agent.csrfToken}; Path=/`);
  return agent;
}

/**
 * A `sessionid` cookie (name=value) for a new session of the member, written straight to the
 * store, so tests of other apps do not depend on the login API.
 */
export async function memberSessionCookie(t: Pick<TestContext, 'ctx'>, member: { id: number }): Promise<string> {
  const sid = crypto.randomBytes(24).toString('base64url');
  const expires = new Date(Date.now() + SESSION_IDLE_MS);
  const sess = {
    cookie: { originalMaxAge: SESSION_IDLE_MS, expires: expires.toISOString(), httpOnly: true, path: '/', sameSite: 'lax', secure: false },
    passport: { user: member.id },
  };
  await t.ctx.db('sessions').insert({ sid, sess: JSON.stringify(sess), expired: expires });
  return `${SESSION_COOKIE}=${encodeURIComponent(`s:${sign(sid, t.ctx.config.sessionSecret)}`)}`;
}

/** A guestAgent signed in as the member (see memberSessionCookie). */
export async function memberAgent(t: Pick<TestContext, 'app' | 'ctx'>, member: { id: number }): Promise<Agent> {
  const agent = guestAgent(t.app);
  agent.jar.setCookie(`${await memberSessionCookie(t, member)}; Path=/`);
  return agent;
}
