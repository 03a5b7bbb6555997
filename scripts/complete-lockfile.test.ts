import fs from 'node:fs';
import path from 'node:path';
import { completeLockfile } from './complete-lockfile';

test('adds a missing platform binary as an optional entry with its os and cpu', () => {
  const lock = {
    packages: {
      '': {},
      'node_modules/tool': { version: '1.0.0', dev: true, license: 'MIT', optionalDependencies: { 'tool-darwin-arm64': '1.0.0', 'tool-linux-x64-gnu': '1.0.0' } },
      'node_modules/tool-linux-x64-gnu': { version: '1.0.0' },
    },
  };
  expect(completeLockfile(lock)).toEqual(['tool-darwin-arm64@1.0.0']);
  expect(lock.packages['node_modules/tool-darwin-arm64' as keyof typeof lock.packages]).toEqual({ version: '1.0.0', cpu: ['arm64'], license: 'MIT', optional: true, os: ['darwin'], dev: true });
});

test("the project's package-lock.json is complete, so `npm ci` accepts it (run `npm run lockfile:complete`)", () => {
  const lock = JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', 'package-lock.json'), 'utf8'));
  expect(completeLockfile(lock)).toEqual([]);
});
