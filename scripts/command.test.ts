import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../server/config';
import { runCommand, withDatabase } from './command';

// The command scripts' shared frame: the configured database migrated before the command and
// closed after it, even when it fails; and a script imported (by its tests) never runs.

describe('scripts/command.ts', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'guide-command-'));
  });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const config = () => loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir });
  const lockFile = () => path.join(dataDir, 'guide.lock');

  test('withDatabase migrates the embedded database first, answers what fn answers, and closes it', async () => {
    const first = await withDatabase(async ({ db, kind, migrated }) => {
      expect(fs.existsSync(lockFile())).toBe(true); // open: this process holds the data directory
      const [{ n }] = await db('profiles').count({ n: '*' });
      return { kind, ran: migrated.ran.length, profiles: Number(n) };
    }, { config: config() });
    expect(first.kind).toBe('pglite');
    expect(first.ran).toBeGreaterThan(0);
    expect(first.profiles).toBe(0);
    expect(fs.existsSync(lockFile())).toBe(false);
    expect(await withDatabase(async ({ migrated }) => migrated.ran, { config: config() })).toEqual([]);
  });

  test('withDatabase closes the database when the command throws, and passes the error on', async () => {
    await expect(
      withDatabase(async ({ db }) => {
        await db('profiles').insert({ email: 'half@example.com' });
        throw new Error('the command failed');
      }, { config: config() }),
    ).rejects.toThrow('the command failed');
    expect(fs.existsSync(lockFile())).toBe(false);
    // What it wrote before failing is on disk: the database was closed properly, not abandoned.
    expect(await withDatabase(async ({ db }) => (await db('profiles').pluck('email')) as string[], { config: config() })).toEqual(['half@example.com']);
  });

  test('runCommand runs main only in the script node started, so tests can import a command', () => {
    const main = jest.fn(async () => {});
    runCommand({ id: 'some other module' } as NodeModule, main);
    expect(main).not.toHaveBeenCalled();
  });

  test("runCommand prints a failed command's message (its stack when asked) and exits 1", async () => {
    const exit = jest.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
    const printed = jest.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const failed = new Error('No member with the email nobody@example.com.');
      // require.main is the module node started with (under jest, this test file).
      runCommand(require.main!, () => Promise.reject(failed));
      await new Promise((resolve) => setImmediate(resolve));
      expect(printed.mock.calls).toEqual([['No member with the email nobody@example.com.']]);
      expect(exit.mock.calls).toEqual([[1]]);
      runCommand(require.main!, () => Promise.reject(failed), { showStack: true });
      await new Promise((resolve) => setImmediate(resolve));
      expect(printed.mock.calls[1]).toEqual([failed.stack]);
      expect(exit.mock.calls).toEqual([[1], [1]]);
    } finally {
      exit.mockRestore();
      printed.mockRestore();
    }
  });
});
