import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';

// The real server process: it answers /healthz, and on SIGTERM it stops accepting, lets the
// request in flight finish, closes the database (releasing the embedded database's lock) and
// exits 0 within 10 s. (Always on the embedded database: the lock file is part of what it checks.)
const root = path.resolve(__dirname, '..', '..');
const PORT = 3391 + (process.pid % 5);

function get(pathname: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port: PORT, path: pathname, agent: false }, (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

test('SIGTERM finishes the request in flight, closes the database and exits 0', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'guide-shutdown-'));
  const env = { ...process.env, PORT: String(PORT), DATA_DIR: dataDir, NODE_ENV: 'development', LOG_LEVEL: 'warn', NODE_OPTIONS: '' };
  const child = spawn(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'server/index.ts'], { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c) => (stderr += c));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  try {
    const deadline = Date.now() + 60_000;
    let up = false;
    while (!up && Date.now() < deadline) {
      up = await get('/healthz').then((r) => r.status === 200, () => false);
      if (!up) await new Promise((r) => setTimeout(r, 200));
    }
    expect(up).toBe(true);
    // A slow client: the request is in flight (headers sent, body still coming) when SIGTERM arrives.
    const inFlight = new Promise<number>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: PORT, path: '/healthz', method: 'GET', agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.flushHeaders();
      setTimeout(() => req.end(), 700);
    });
    await new Promise((r) => setTimeout(r, 200));
    const t0 = Date.now();
    child.kill('SIGTERM');
    expect(await inFlight).toBe(200);
    const code = await exited;
    expect(code).toBe(0);
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(fs.existsSync(path.join(dataDir, 'guide.lock'))).toBe(false);
    await expect(get('/healthz')).rejects.toThrow();
  } catch (err) {
    child.kill('SIGKILL');
    throw new Error(`${(err as Error).message}\nserver stderr:\n${stderr}`);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}, 90_000);
