import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { loadConfig } from '../../config';
import { createApp } from '../../app';
import { buildAppContext, droppedMail } from '../../app-context';
import type { AppContext } from '../../context';
import { openDatabase, type DbHandle } from '../../db';
import { createLocalStorage } from '../../storage/storage';
import { openTestDatabase } from '../../testing/test-db';
import { waitFor } from '../../testing/wait-for';
import { createArticleType } from '../../testing/fixtures';
import { createMember } from '../../testing/test-app';
import { createNewsroomService, type NewsroomActor } from './service';

// Two server processes on one PostgreSQL database, each with its production caches (the page
// cache, the home's lists, the navbar's menus): a story published through one is on the other's
// home within 2 s, told through LISTEN/NOTIFY (cache/change-notices.ts), where without a notice
// the page cache would keep the old home 10 s and the home's lists a minute. And a process
// whose listening connection is cut forgets everything when it is back.

jest.setTimeout(60_000);

describe('change notices between two processes (PostgreSQL)', () => {
  let dbA: DbHandle;
  let dbB: DbHandle;
  let a: AppContext;
  let b: AppContext;
  let tmpDir: string;

  beforeAll(async () => {
    dbA = await openTestDatabase();
    const url = (dbA.db.client.config.connection as { connectionString?: string }).connectionString ?? String(dbA.db.client.config.connection);
    dbB = await openDatabase({ databaseUrl: url, poolMax: 3 });
    tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'guide-notices-'));
    const config = loadConfig({ NODE_ENV: 'production', SESSION_SECRET: crypto.randomBytes(48).toString('base64url'), DATA_DIR: tmpDir, DATABASE_URL: url, RATE_LIMITS: 'false', SITE_URL: 'http://127.0.0.1:3999' });
    const storage = createLocalStorage(path.join(tmpDir, 'media'));
    a = buildAppContext(config, dbA, { mailer: droppedMail, storage });
    b = buildAppContext(config, dbB, { mailer: droppedMail, storage });
    await a.changes.listen();
    await b.changes.listen();
  });
  afterAll(async () => {
    await a?.changes.close();
    await b?.changes.close();
    await dbB?.close();
    await dbA?.close();
    if (tmpDir) fs.rmSync(tmpDir, { recursive: true, force: true });
  });

  test('a story published on one process is on the other’s home within 2 s', async () => {
    const appB = createApp(b, { watchManifest: false });
    const typeId = await createArticleType(a.db, 'news', 'News');
    const editor = await createMember(a, { full_name: 'Ed Itor' });
    await a.db('profiles').where({ id: editor.id }).update({ newsroom_role: 'administrator' });
    const actor: NewsroomActor = { id: editor.id, email: editor.email, role: 'administrator', name: 'Ed' };
    const newsroom = createNewsroomService(a);
    const story = await newsroom.create(actor, { name: 'Ferry service resumes to Ward’s Island', type_id: typeId, doc: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'The ferries run again.' }] }] } });
    // B's home is now kept by B's caches (the page cache and the home's lists).
    const before = await request(appB).get('/').expect(200);
    expect(before.text).not.toContain('Ferry service resumes');
    expect((await request(appB).get('/').expect(200)).text).toBe(before.text);

    await newsroom.publish(actor, story.id);
    const published = Date.now();
    let tookMs = 0;
    await waitFor('the story on the other process’s home', async () => {
      const home = await request(appB).get('/');
      tookMs = Date.now() - published;
      return home.text.includes('Ferry service resumes');
    }, 10_000);
    expect(tookMs).toBeLessThan(2_000);
  });

  test('after its listening connection is cut, a process forgets everything once it is back', async () => {
    const told: string[] = [];
    b.changes.subscribe((c) => told.push(c.subject));
    // Cut B's LISTEN connection from the server side, as a PostgreSQL restart would.
    await a.db.raw("select pg_terminate_backend(pid) from pg_stat_activity where query like 'LISTEN guide_content_changed%' and pid <> pg_backend_pid()");
    await waitFor('B to reconnect and forget', () => told.includes('reconnected'), 20_000);
    // And it hears notices again.
    await a.changes.announce({ subject: 'story:after-reconnect', paths: [] });
    await waitFor('a notice after the reconnect', () => told.includes('story:after-reconnect'), 5_000);
  });
});
