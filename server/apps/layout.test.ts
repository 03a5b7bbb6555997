import fs from 'node:fs';
import path from 'node:path';
import { checkAppLayout, findingsOf, layoutProblems, readmeExceptions, roleOf, ROLES } from '../../scripts/app-layout';

// One layout for every app (server/apps/README.md): each file's name gives its role and its
// content keeps to it. `npm run lint` runs the same check; this tests that it holds and that
// it can fail.

const README = fs.readFileSync(path.join(__dirname, 'README.md'), 'utf8');

describe('one layout for every app, by role', () => {
  test('every app file plays its role, and the table of files with no role is short', () => {
    expect(checkAppLayout()).toEqual([]);
    const rows = [...readmeExceptions(README).values()].reduce((n, files) => n + files.size, 0);
    expect(rows).toBeLessThan(20);
  });

  test('the README tables every role with its names', () => {
    const section = README.slice(README.indexOf('## One layout for every app'), README.indexOf('<!-- app-files -->'));
    for (const role of ROLES) expect(section).toContain(`| ${role.role} | ${role.names} |`);
  });

  test('names give roles; the first match wins', () => {
    expect(roleOf('api.ts')?.role).toBe('router');
    expect(roleOf('save-queries.ts')?.role).toBe('queries');
    expect(roleOf('purge-job.ts')?.role).toBe('job');
    expect(roleOf('favourites-kind.ts')?.role).toBe('save kind');
    expect(roleOf('schedule.ts')?.role).toBe('module');
    expect(roleOf('Upper.ts')).toBeUndefined();
    expect(roleOf('common-passwords.txt')).toBeUndefined();
  });

  test('database calls, routers and express are found, and what merely looks like them is not', () => {
    const powers = (source: string) => findingsOf(source).map((f) => `${f.power}@${f.line}`);
    expect(powers("const rows = await db('listings').where({ id });")).toEqual(['database@1', 'database@1']);
    expect(powers('export const q = (trx) =>\n  trx.raw("select 1");')).toEqual(['database@2']);
    expect(powers("await ctx.db('profiles').first('id');")).toEqual(['database@1']);
    expect(powers("import { Router } from 'express';\nconst r = Router();")).toEqual(['express@1', 'routes@2']);
    expect(powers("import type { Request } from 'express';\nimport { type Response } from 'express';")).toEqual([]);
    // sharp's raw(), String.raw, zod's union, arrays' join and Map's delete are not the database.
    expect(powers("sharp(b).raw().toBuffer(); String.raw`x`; z.union([a, b]); [1].join(','); m.delete(k);")).toEqual([]);
  });

  test('a misplaced call fails with its file, line and role; a stale or needless row fails too', () => {
    const folders = new Map([
      ['media', ['api.ts', 'service.ts', 'queries.ts', 'semaphore.ts', 'serialize.ts', 'fixture.json', 'test-images.ts', 'media.test.ts']],
    ]);
    const files: Record<string, string> = {
      'api.ts': "import { Router } from 'express';\nexport const r = Router();\nr.get('/', async (_q, s) => s.json(await db('media').select('id')));",
      'service.ts': "export const createMediaService = (db) => ({ one: (id) => db('media').where({ id }).first() });",
      'queries.ts': "export const all = (db) => db('media').select('id');",
      'semaphore.ts': 'export class Semaphore {}',
      'serialize.ts': "import { all } from './queries';\nexport const dto = (r) => r;",
      'test-images.ts': "export const x = db('media').select();",
      'media.test.ts': "db('media').where({});",
    };
    const problems = layoutProblems(
      folders,
      readmeExceptions('<!-- app-files -->\n| App | File | Why |\n|---|---|---|\n| `media` | `semaphore.ts` | no reason |\n| `media` | `gone.ts` | stale |\n'),
      (_app, file) => files[file],
    );
    expect(problems).toEqual([
      'media/api.ts:3: .select(…) builds a query, which a router file may not (database calls belong in queries.ts or a *-queries.ts)',
      'media/api.ts:3: db(…) reads a table, which a router file may not (database calls belong in queries.ts or a *-queries.ts)',
      'media/service.ts:1: .where(…) builds a query, which a service file may not (database calls belong in queries.ts or a *-queries.ts)',
      'media/service.ts:1: db(…) reads a table, which a service file may not (database calls belong in queries.ts or a *-queries.ts)',
      'README lists media/semaphore.ts, which keeps to its role (module): drop the row',
      "media/serialize.ts: imports queries, which a serialize file may not (rows become DTOs without a query)",
      'media/fixture.json: no role has this name and server/apps/README.md does not list it',
      'README lists media/gone.ts, which does not exist',
    ]);
  });
});
