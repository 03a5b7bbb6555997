import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Socket } from 'node:net';
import { jpegImage } from '../../server/apps/media/test-images';
import type { DbHandle } from '../../server/db';
import { openTestDatabase, testDatabaseUrl, withDatabase } from '../../server/testing/test-db';
import { httpRequest, signUp, startServerProcess, type Answer, type ServerProcess } from './server-process';

// The real server process on SIGTERM while keep-alive clients keep sending and a member's
// photo is still uploading: it stops accepting, turns the keep-alive clients away at once
// (`Connection: close` on what it still answers, idle connections closed), lets the upload
// finish, closes the database (releasing the embedded database's lock) and exits 0 within
// 10 s. Before, the keep-alive clients were served for the whole grace period, the upload was
// cut off at its end and the process exited 1. On the suite's database: PGlite, or PostgreSQL
// with TEST_DATABASE_URL.

jest.setTimeout(120_000);

interface LoopEntry {
  socket: number;
  status?: number;
  connectionClose?: boolean;
  error?: string;
  afterSigterm: boolean;
}

describe('SIGTERM', () => {
  let pgDatabase: DbHandle | undefined;
  let server: ServerProcess;
  beforeAll(async () => {
    let databaseUrl: string | undefined;
    if (testDatabaseUrl()) {
      pgDatabase = await openTestDatabase();
      const name = (await pgDatabase.db.raw('select current_database() as name')).rows[0].name as string;
      await pgDatabase.db.destroy(); // the process is the database's only client
      databaseUrl = withDatabase(testDatabaseUrl()!, name);
    }
    server = await startServerProcess({ databaseUrl });
  });
  afterAll(async () => {
    await server?.dispose();
    await pgDatabase?.close();
  });

  test('turns keep-alive clients away at once, finishes the upload in flight and exits 0 within 10 s', async () => {
    const { port } = server;
    const member = await signUp(port);

    // Four keep-alive clients, one connection each, asking for the home page one request after
    // another (a page takes long enough that some are being answered when SIGTERM arrives).
    const socketIds = new WeakMap<Socket, number>();
    let sockets = 0;
    let sigtermSent = false;
    const logs: LoopEntry[][] = [[], [], [], []];
    const keepAliveGet = (agent: http.Agent, log: LoopEntry[]) =>
      new Promise<void>((resolve, reject) => {
        const req = http.get({ host: '127.0.0.1', port, path: '/', agent }, (res) => {
          res.resume();
          res.on('end', () => {
            log.push({ socket: socketIds.get(req.socket!)!, status: res.statusCode, connectionClose: res.headers.connection === 'close', afterSigterm: sigtermSent });
            resolve();
          });
        });
        req.on('socket', (s) => {
          if (!socketIds.has(s)) socketIds.set(s, ++sockets);
        });
        req.on('error', reject);
      });
    const loops = logs.map(async (log) => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        for (;;) {
          try {
            await keepAliveGet(agent, log);
          } catch (err) {
            log.push({ socket: 0, error: (err as NodeJS.ErrnoException).code ?? (err as Error).message, afterSigterm: sigtermSent });
            if (sigtermSent) return; // turned away: the server no longer takes connections
            throw err;
          }
        }
      } finally {
        agent.destroy();
      }
    });
    const answered = () => logs.reduce((n, log) => n + log.filter((e) => e.status).length, 0);
    const whenAnswered = async (n: number) => {
      while (answered() < n) await new Promise((resolve) => setImmediate(resolve));
    };
    await whenAnswered(20);
    for (const log of logs) expect(new Set(log.map((e) => e.socket)).size).toBeLessThan(log.length); // connections are reused

    // A member's photo upload, half sent when SIGTERM arrives.
    const boundary = `----guide${crypto.randomBytes(8).toString('hex')}`;
    const photo = await jpegImage(300, 200);
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`),
      photo,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const half = Math.floor(body.length / 2);
    let uploadResolve!: (a: Answer) => void;
    let uploadReject!: (e: Error) => void;
    const upload = new Promise<Answer>((resolve, reject) => ((uploadResolve = resolve), (uploadReject = reject)));
    // On a keep-alive connection of its own, reused after the upload is answered.
    const uploadAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const uploadReq = http.request(
      {
        host: '127.0.0.1',
        port,
        path: '/streams/image-upload/',
        method: 'POST',
        agent: uploadAgent,
        headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': String(body.length), Cookie: member.cookie, 'X-CSRFToken': member.csrfToken },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => uploadResolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    uploadReq.on('error', uploadReject);
    await new Promise<void>((resolve) => uploadReq.write(body.subarray(0, half), () => resolve()));
    // The keep-alive clients' next answers come after the server has read the upload's start.
    await whenAnswered(answered() + 8);

    const t0 = Date.now();
    sigtermSent = true;
    server.child.kill('SIGTERM');
    const first = await Promise.race([
      Promise.all(loops).then(() => 'keep-alive clients turned away'),
      server.exited.then(() => 'process exited'),
      upload.then(() => 'upload answered early', (err: Error) => `upload cut off: ${err.message}`),
    ]);
    expect(first).toBe('keep-alive clients turned away');
    expect(server.child.exitCode).toBeNull(); // still finishing the upload

    uploadReq.end(body.subarray(half));
    const answer = await upload;
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).uploaded_image_url).toMatch(/\/media\/uploads\/.+\.jpg$/);
    expect(answer.headers.connection).toBe('close'); // in flight at SIGTERM: no keep-alive after it
    // The client's next request on that connection is not served: the connection is gone, and
    // the server takes no new one.
    const next = await httpRequest(port, '/', { agent: uploadAgent }).then(
      (r) => `served ${r.status} (Connection: ${r.headers.connection})`,
      (err: NodeJS.ErrnoException) => err.code,
    );
    expect(next).toBe('ECONNREFUSED');
    uploadAgent.destroy();

    expect(await server.exited).toBe(0);
    expect(Date.now() - t0).toBeLessThan(10_000);
    // After SIGTERM each client got at most what was already on its way, then no connection.
    for (const log of logs) {
      const after = log.filter((e) => e.afterSigterm);
      expect(after.at(-1)?.error).toMatch(/ECONNREFUSED|ECONNRESET|socket hang up/);
    }
    if (!pgDatabase) expect(fs.existsSync(path.join(server.dataDir, 'guide.lock'))).toBe(false);
    await expect(httpRequest(port, '/healthz')).rejects.toThrow();
  });
});
