import fs from 'node:fs';
import path from 'node:path';

// One layout for every app (server/apps/README.md, "One layout for every app"): each file of an
// app folder has a standard name, or is listed for that app in the README's table of other
// files, so a file with a new name is either a standard job under its standard name or a
// job the README says is that app's own.

const APPS = __dirname;
const README = path.join(APPS, 'README.md');

/** The standard names: routes (api.ts, pages.ts), the service, query scopes, DTOs, input schemas. */
const STANDARD_FILES = ['api.ts', 'pages.ts', 'service.ts', 'queries.ts', 'serialize.ts', 'schemas.ts', 'README.md'];

/** Tests and test helpers, which the layout leaves out: `*.test.ts` and `test-*.ts`. */
const isTestFile = (name: string) => name.endsWith('.test.ts') || /^test-[a-z0-9-]+\.ts$/.test(name);

/** The README's table after `<!-- app-files -->`: rows `| \`app\` | \`file\` | what it is for |`. */
function readmeAppFiles(text: string): Map<string, Set<string>> {
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

/** What breaks the layout: each unknown file, named with its app, and each table row naming a file that is not there. */
function layoutProblems(folders: Map<string, string[]>, table: Map<string, Set<string>>): string[] {
  const problems: string[] = [];
  for (const [app, entries] of folders) {
    for (const name of entries) {
      if (isTestFile(name) || STANDARD_FILES.includes(name) || table.get(app)?.has(name)) continue;
      problems.push(`${app}/${name}: not a standard name and not listed for app ${app} in server/apps/README.md`);
    }
  }
  for (const [app, files] of table) {
    for (const name of files) {
      if (!folders.get(app)?.includes(name)) problems.push(`README lists ${app}/${name}, which does not exist`);
      if (STANDARD_FILES.includes(name)) problems.push(`README lists ${app}/${name}, a standard name, as an other file`);
    }
  }
  return problems;
}

/** Every app folder and its entries (a sub-folder is named with a trailing slash). */
function appFolders(): Map<string, string[]> {
  const folders = new Map<string, string[]>();
  for (const d of fs.readdirSync(APPS, { withFileTypes: true })) {
    if (!d.isDirectory()) continue;
    const entries = fs.readdirSync(path.join(APPS, d.name), { withFileTypes: true });
    folders.set(d.name, entries.map((e) => (e.isDirectory() ? `${e.name}/` : e.name)));
  }
  return folders;
}

describe('one layout for every app', () => {
  test('every file of every app is a standard name or listed for its app in the README', () => {
    const folders = appFolders();
    expect(folders.size).toBeGreaterThan(30); // guards against reading the wrong folder
    expect(layoutProblems(folders, readmeAppFiles(fs.readFileSync(README, 'utf8')))).toEqual([]);
  });

  test('the README documents the standard names', () => {
    const text = fs.readFileSync(README, 'utf8');
    const section = text.slice(text.indexOf('## One layout for every app'), text.indexOf('<!-- app-files -->'));
    for (const name of STANDARD_FILES.filter((n) => n !== 'README.md')) expect(section).toContain(`\`${name}\``);
  });

  test('an unknown name fails, naming the file and the app; a stale row fails too', () => {
    const table = readmeAppFiles('<!-- app-files -->\n| App | File | For |\n|---|---|---|\n| `media` | `renditions.ts` | resized copies |\n');
    expect([...table.get('media')!]).toEqual(['renditions.ts']);
    const folders = new Map([
      ['media', ['api.ts', 'renditions.ts', 'test-images.ts', 'media.test.ts', 'helpers.ts']],
      ['seo', ['routes.ts', 'pages/']],
    ]);
    expect(layoutProblems(folders, table)).toEqual([
      'media/helpers.ts: not a standard name and not listed for app media in server/apps/README.md',
      'seo/routes.ts: not a standard name and not listed for app seo in server/apps/README.md',
      'seo/pages/: not a standard name and not listed for app seo in server/apps/README.md',
    ]);
    expect(layoutProblems(new Map([['media', ['api.ts']]]), table)).toEqual(['README lists media/renditions.ts, which does not exist']);
  });
});
