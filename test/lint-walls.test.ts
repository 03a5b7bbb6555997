import { execFile } from 'node:child_process';
import path from 'node:path';

// The architecture walls of DESIGN.md are enforced by `npm run lint` (eslint-plugin-boundaries in
// eslint.config.mjs). Each wall is tried once with a planted violation, so a config change that
// silently stops checking one fails here. Files are linted from standard input: nothing is written.
const root = path.resolve(__dirname, '..');
const eslintBin = path.join(root, 'node_modules', 'eslint', 'bin', 'eslint.js');

function lint(filePath: string, source: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [eslintBin, '--stdin', '--stdin-filename', filePath, '--format', 'json'],
      { cwd: root, env: { ...process.env, NODE_OPTIONS: '' } },
      (err, stdout) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, output: stdout }),
    );
    child.stdin?.end(source);
  });
}

function ruleIds(output: string): string[] {
  const results = JSON.parse(output) as Array<{ messages: Array<{ ruleId: string | null }> }>;
  return results.flatMap((r) => r.messages.map((m) => m.ruleId ?? 'fatal'));
}

const planted: Array<[wall: string, file: string, source: string]> = [
  ['islands never import server code', 'islands/planted.ts', "import { createApp } from '../server/app';\nexport const x = createApp;\n"],
  ['shared/ imports neither side (islands)', 'shared/planted.ts', "import { readCookie } from '../islands/common/api';\nexport const x = readCookie;\n"],
  ['shared/ imports neither side (server)', 'shared/planted.ts', "import { loadConfig } from '../server/config';\nexport const x = loadConfig;\n"],
  ['the server core never imports an app', 'server/http/planted.ts', "import { listingsApi } from '../apps/listings/api';\nexport const x = listingsApi;\n"],
  ['migrations never import app code', 'migrations/planted.ts', "import { listingsApi } from '../server/apps/listings/api';\nexport const x = listingsApi;\n"],
];

describe('npm run lint keeps the architecture walls', () => {
  test.each(planted)('a planted violation fails: %s', async (_wall, file, source) => {
    const { code, output } = await lint(file, source);
    expect(code).toBe(1);
    expect(ruleIds(output)).toContain('boundaries/element-types');
  });

  test('an allowed import passes (islands may import shared/)', async () => {
    const { code, output } = await lint('islands/planted.ts', "import { PAGE_SIZE } from '../shared/constants';\nexport const x = PAGE_SIZE;\n");
    expect(ruleIds(output)).toEqual([]);
    expect(code).toBe(0);
  });
});
