import fs from 'node:fs';
import path from 'node:path';
import { parseSync } from '@swc/core';

// The layout of an app folder, by role (server/apps/README.md, "One layout for every app"):
// a file's name says its role, and its content keeps to what the role may do. Only queries
// call the database; only routers make routes; only routers and middleware handle requests.
// A file that no role fits is a row in the README's table, which says why. `npm run lint`
// runs this file; server/apps/layout.test.ts tests it.

const APPS = path.resolve(__dirname, '..', 'server', 'apps');
const README = path.join(APPS, 'README.md');

/** What a file may do beyond plain code: query the database, make routes, handle requests with express. */
export type Power = 'database' | 'routes' | 'express';

export interface Role {
  role: string;
  /** Names of the role: one file name or one suffix. */
  names: string;
  match: (name: string) => boolean;
  may: Power[];
}

/** Every role an app file may play, first match wins; `module` takes any other name. */
export const ROLES: Role[] = [
  { role: 'router', names: '`api.ts`, `pages.ts`', match: (n) => n === 'api.ts' || n === 'pages.ts', may: ['routes', 'express'] },
  { role: 'service', names: '`service.ts`', match: (n) => n === 'service.ts', may: [] },
  { role: 'queries', names: '`queries.ts`, `*-queries.ts`', match: (n) => /^([a-z0-9-]+-)?queries\.ts$/.test(n), may: ['database'] },
  { role: 'serialize', names: '`serialize.ts`', match: (n) => n === 'serialize.ts', may: [] },
  { role: 'schemas', names: '`schemas.ts`', match: (n) => n === 'schemas.ts', may: [] },
  { role: 'job', names: '`*-job.ts`', match: (n) => /^[a-z0-9-]+-job\.ts$/.test(n), may: [] },
  { role: 'email', names: '`*-email.ts`, `*-emails.ts`', match: (n) => /^[a-z0-9-]+-emails?\.ts$/.test(n), may: [] },
  { role: 'save kind', names: '`*-kind.ts`', match: (n) => /^[a-z0-9-]+-kind\.ts$/.test(n), may: [] },
  { role: 'menus', names: '`*-menus.ts`', match: (n) => /^[a-z0-9-]+-menus\.ts$/.test(n), may: [] },
  { role: 'middleware', names: '`*-middleware.ts`', match: (n) => /^[a-z0-9-]+-middleware\.ts$/.test(n), may: ['express'] },
  { role: 'structured data', names: '`structured-data.ts`', match: (n) => n === 'structured-data.ts', may: [] },
  { role: 'module', names: 'any other name', match: (n) => /^[a-z0-9-]+\.ts$/.test(n), may: [] },
];

/** Tests and test helpers, which the layout leaves out: `*.test.ts` and `test-*.ts`. */
export const isTestFile = (name: string) => name.endsWith('.test.ts') || /^test-[a-z0-9-]+\.ts$/.test(name);

export const roleOf = (name: string): Role | undefined => (name === 'README.md' ? undefined : ROLES.find((r) => r.match(name)));

/** Knex's query-builder calls: a call of one of these methods is a database call. */
const QUERY_METHODS = new Set([
  'raw', 'select', 'insert', 'onConflict', 'returning', 'where', 'whereIn', 'whereNotIn', 'whereNull', 'whereNotNull',
  'whereRaw', 'whereExists', 'whereNotExists', 'whereNot', 'whereBetween', 'whereILike', 'whereLike', 'andWhere', 'orWhere',
  'leftJoin', 'innerJoin', 'joinRaw', 'orderBy', 'orderByRaw', 'groupBy', 'having', 'increment', 'decrement', 'pluck',
  'del', 'truncate', 'distinct', 'distinctOn', 'forUpdate', 'skipLocked',
]);
/** The names a database handle goes by here: `db('table')` is a database call. */
const DATABASE_HANDLES = new Set(['db', 'trx', 'knex', 'tx']);

export interface Finding {
  power: Power;
  line: number;
  what: string;
}

type Node = { type?: string; span?: { start: number }; [key: string]: unknown };

function walk(node: unknown, visit: (n: Node) => void): void {
  if (Array.isArray(node)) {
    for (const child of node) walk(child, visit);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const n = node as Node;
  if (typeof n.type === 'string') visit(n);
  for (const key of Object.keys(n)) if (key !== 'span') walk(n[key], visit);
}

const name = (n: unknown): string | undefined => {
  const node = n as Node | undefined;
  if (!node) return undefined;
  if (node.type === 'Identifier') return node.value as string;
  return undefined;
};

/** What a source does that needs a power: database calls, routers, express at runtime. */
export function findingsOf(source: string): Finding[] {
  const ast = parseSync(source, { syntax: 'typescript' });
  const offset = ast.span.start;
  const lineOf = (n: Node) => source.slice(0, (n.span?.start ?? offset) - offset).split('\n').length;
  const found: Finding[] = [];
  walk(ast.body, (n) => {
    if (n.type === 'ImportDeclaration') {
      const from = (n.source as { value: string }).value;
      if (from !== 'express' || n.typeOnly) return;
      const specifiers = n.specifiers as Array<{ type: string; isTypeOnly?: boolean; local: { value: string }; imported?: { value: string } }>;
      const runtime = specifiers.filter((s) => !s.isTypeOnly);
      if (runtime.length === 0 && specifiers.length > 0) return;
      found.push({ power: 'express', line: lineOf(n), what: "imports express's runtime" });
      return;
    }
    if (n.type !== 'CallExpression') return;
    const callee = n.callee as Node;
    const args = n.arguments as Array<{ expression: Node }>;
    if (callee.type === 'Identifier') {
      const called = callee.value as string;
      if (called === 'Router') found.push({ power: 'routes', line: lineOf(n), what: 'makes a Router' });
      const first = args[0]?.expression;
      if (DATABASE_HANDLES.has(called) && first && (first.type === 'StringLiteral' || first.type === 'TemplateLiteral')) {
        found.push({ power: 'database', line: lineOf(n), what: `${called}(…) reads a table` });
      }
      return;
    }
    if (callee.type !== 'MemberExpression') return;
    const method = name(callee.property);
    if (!method) return;
    if (method === 'Router' && name(callee.object) === 'express') found.push({ power: 'routes', line: lineOf(n), what: 'makes a Router' });
    const first = args[0]?.expression;
    if (DATABASE_HANDLES.has(method) && first && (first.type === 'StringLiteral' || first.type === 'TemplateLiteral')) {
      found.push({ power: 'database', line: lineOf(n), what: `${method}(…) reads a table` });
      return;
    }
    // sharp's \`.raw()\` takes no argument; Knex's takes its SQL.
    if (QUERY_METHODS.has(method) && name(callee.object) !== 'String' && !(method === 'raw' && args.length === 0)) {
      found.push({ power: 'database', line: lineOf(n), what: `.${method}(…) builds a query` });
    }
  });
  return found;
}

/** The README's table after `<!-- app-files -->`: rows `| \`app\` | \`file\` | why it has no role |`. */
export function readmeExceptions(text: string): Map<string, Set<string>> {
  const start = text.indexOf('<!-- app-files -->');
  if (start < 0) throw new Error('server/apps/README.md has no <!-- app-files --> table');
  const table = new Map<string, Set<string>>();
  for (const line of text.slice(start).split('\n').slice(1)) {
    if (line.trim() === '' && table.size > 0) break;
    const row = /^\|\s*`([a-z0-9-]+)`\s*\|\s*`([^`]+)`\s*\|\s*\S.*\|\s*$/.exec(line);
    if (!row) continue;
    const [, app, file] = row;
    if (!table.has(app)) table.set(app, new Set());
    table.get(app)!.add(file);
  }
  return table;
}

/** Every app folder and its entries (a sub-folder is named with a trailing slash). */
export function appFolders(dir = APPS): Map<string, string[]> {
  const folders = new Map<string, string[]>();
  for (const d of fs.readdirSync(dir, { withFileTypes: true })) {
    if (!d.isDirectory()) continue;
    const entries = fs.readdirSync(path.join(dir, d.name), { withFileTypes: true });
    folders.set(d.name, entries.map((e) => (e.isDirectory() ? `${e.name}/` : e.name)));
  }
  return folders;
}

/**
 * What breaks the layout: a file with no role and no row, a file doing what its role may not
 * (named with the line), a row for a file that has a role or does not exist.
 */
export function layoutProblems(folders: Map<string, string[]>, exceptions: Map<string, Set<string>>, read: (app: string, file: string) => string): string[] {
  const problems: string[] = [];
  for (const [app, entries] of folders) {
    for (const file of entries) {
      if (isTestFile(file) || file === 'README.md') continue;
      const listed = exceptions.get(app)?.has(file) ?? false;
      const role = roleOf(file);
      if (!role) {
        if (!listed) problems.push(`${app}/${file}: no role has this name and server/apps/README.md does not list it`);
        continue;
      }
      if (!file.endsWith('.ts')) continue;
      const wrong = findingsOf(read(app, file)).filter((f) => !role.may.includes(f.power));
      if (listed) {
        if (wrong.length === 0) problems.push(`README lists ${app}/${file}, which keeps to its role (${role.role}): drop the row`);
        continue;
      }
      if (role.role === 'serialize' && /from '\.\/([a-z0-9-]+-)?queries'/.test(read(app, file))) {
        problems.push(`${app}/${file}: imports queries, which a serialize file may not (rows become DTOs without a query)`);
      }
      for (const f of wrong) problems.push(`${app}/${file}:${f.line}: ${f.what}, which a ${role.role} file may not (${POWER_OWNERS[f.power]})`);
    }
  }
  for (const [app, files] of exceptions) {
    for (const file of files) if (!folders.get(app)?.includes(file)) problems.push(`README lists ${app}/${file}, which does not exist`);
  }
  return problems;
}

const POWER_OWNERS: Record<Power, string> = {
  database: 'database calls belong in queries.ts or a *-queries.ts',
  routes: 'routes belong in api.ts or pages.ts',
  express: 'requests are handled in api.ts, pages.ts or a *-middleware.ts',
};

export function checkAppLayout(): string[] {
  return layoutProblems(appFolders(), readmeExceptions(fs.readFileSync(README, 'utf8')), (app, file) => fs.readFileSync(path.join(APPS, app, file), 'utf8'));
}

if (require.main === module) {
  const problems = checkAppLayout();
  for (const p of problems) console.error(p);
  if (problems.length > 0) {
    console.error(`\n${problems.length} layout problem(s): see server/apps/README.md, "One layout for every app"`);
    process.exit(1);
  }
  console.log('app layout: every app file plays its role');
}
