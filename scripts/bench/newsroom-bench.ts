// What the newsroom's benches (editor-keystroke.ts, publish-visible.ts) share: a database of
// their own (a scratch database on a PostgreSQL server, dropped afterwards, or a fresh PGlite
// directory), migrated and seeded with an article type and an administrator of the newsroom,
// and the staff API as that administrator (signed in through the real login API).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knexFactory from 'knex';
import { openDatabase, type Db } from '../../server/db';
import { migrateLatest } from '../../server/db/migrate';
import { hashPassword } from '../../server/apps/accounts/passwords';
import type { StoryDoc, StoryNode } from '../../shared/newsroom';
import { CSRF, signIn } from './measure';

export const ADMIN_EMAIL = 'bench.administrator@example.com';
export const ADMIN_PASSWORD = 'bench-spadina-streetcar-510';

export interface BenchDatabase {
  /** For the server: its DATABASE_URL, or its DATA_DIR (PGlite). */
  databaseUrl?: string;
  pgliteDir?: string;
  /** What the report names (no password). */
  label: string;
  drop(): Promise<void>;
}

/**
 * A database of the bench's own: on the PostgreSQL server of `serverUrl` a new database
 * `<prefix>_<pid>` (dropped by drop()), else a fresh PGlite directory in /tmp.
 */
export async function scratchDatabase(prefix: string, serverUrl: string | undefined): Promise<BenchDatabase> {
  if (!serverUrl) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
    return { pgliteDir: dir, label: `PGlite in ${dir}`, drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
  }
  const name = `${prefix}_${process.pid}`;
  const admin = knexFactory({ client: 'pg', connection: serverUrl, pool: { min: 0, max: 1 } });
  await admin.raw('DROP DATABASE IF EXISTS ?? WITH (FORCE)', [name]);
  await admin.raw('CREATE DATABASE ??', [name]);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    databaseUrl: url.toString(),
    label: `${url.host}/${name} (PostgreSQL, made for this run)`,
    drop: async () => {
      await admin.raw('DROP DATABASE IF EXISTS ?? WITH (FORCE)', [name]).catch((err: Error) => console.warn(`could not drop ${name}: ${err.message}`));
      await admin.destroy();
    },
  };
}

/** Migrates the database and seeds it; the callback adds what the bench needs. Closed afterwards (PGlite allows one process). */
export async function seedDatabase<T>(target: BenchDatabase, seed: (db: Db) => Promise<T>): Promise<T> {
  const handle = target.pgliteDir ? await openDatabase({ dataDir: target.pgliteDir }) : await openDatabase({ databaseUrl: target.databaseUrl!, poolMax: 2 });
  try {
    await migrateLatest(handle.db);
    return await seed(handle.db);
  } finally {
    await handle.close();
  }
}

/** An article type (one of the site's hubs: it has a hub page and an RSS feed) and the administrator; answers the type's id. */
export async function seedNewsroom(db: Db, type = { slug: 'news', name: 'News' }): Promise<number> {
  const existing = await db('article_types').where({ slug: type.slug }).first('id');
  const typeId = existing ? Number(existing.id) : Number((await db('article_types').insert(type).returning('id'))[0].id);
  await db('profiles').insert({
    email: ADMIN_EMAIL,
    password_hash: await hashPassword(ADMIN_PASSWORD),
    full_name: 'Bench Administrator',
    is_staff: true,
    newsroom_role: 'administrator',
  });
  return typeId;
}

export interface StaffClient {
  cookie: string;
  /** A staff API call (JSON both ways); throws on an answer other than `expect`. */
  call<T>(method: string, apiPath: string, body?: unknown, expect?: number): Promise<T>;
}

/** The administrator signed in on `base` through the login API, and the staff API as them. */
export async function staffClient(base: string): Promise<StaffClient> {
  const cookie = await signIn(base, ADMIN_EMAIL, ADMIN_PASSWORD);
  return {
    cookie,
    async call<T>(method: string, apiPath: string, body?: unknown, expect = method === 'POST' && !apiPath.includes('/publish/') ? 201 : 200): Promise<T> {
      const res = await fetch(`${base}/api/v2/staff/${apiPath}`, {
        method,
        headers: { cookie, 'x-csrftoken': CSRF, origin: base, 'content-type': 'application/json', 'x-forwarded-proto': 'https' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      if (res.status !== expect) throw new Error(`${method} /api/v2/staff/${apiPath} answered ${res.status}: ${text.slice(0, 500)}`);
      return JSON.parse(text) as T;
    },
  };
}

// A deterministic vocabulary of city words, so every run types into the same body.
const WORDS = (
  'the city streetcar line ran late again as the council met downtown to talk about the new ' +
  'bike lanes on bloor street while a crowd gathered near the market for fresh bread cheese and ' +
  'coffee from a small shop that opened last spring beside the old theatre where the festival ' +
  'plays every summer under bright lights and warm evening air along the waterfront trail'
).split(' ');

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** A body of `words` words: paragraphs of 40–120 words, a level-2 heading before every tenth. */
export function longStoryDoc(words: number, seed = 37): { doc: StoryDoc; paragraphs: number; headings: number } {
  const next = rng(seed);
  const content: StoryNode[] = [];
  let left = words;
  let paragraphs = 0;
  let headings = 0;
  const sentence = (n: number) => {
    const w = Array.from({ length: n }, () => WORDS[Math.floor(next() * WORDS.length)]);
    w[0] = w[0][0].toUpperCase() + w[0].slice(1);
    return `${w.join(' ')}.`;
  };
  while (left > 0) {
    if (paragraphs % 10 === 0) {
      content.push({ type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: sentence(5).slice(0, -1) }] });
      headings += 1;
      left -= 5;
    }
    let n = Math.min(left, 40 + Math.floor(next() * 80));
    const parts: string[] = [];
    while (n > 0) {
      const k = Math.min(n, 8 + Math.floor(next() * 12));
      parts.push(sentence(k));
      n -= k;
      left -= k;
    }
    content.push({ type: 'paragraph', content: [{ type: 'text', text: parts.join(' ') }] });
    paragraphs += 1;
  }
  return { doc: { type: 'doc', content }, paragraphs, headings };
}

export const percentile = (xs: number[], p: number) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
};
