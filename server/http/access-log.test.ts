import { Writable } from 'node:stream';
import express from 'express';
import pino from 'pino';
import request from 'supertest';
import { accessLog } from './access-log';
import { requestId } from './request-id';

// The access log: one line per answer with what an operator needs, never a header's secrets.

function appWithLog(level: string) {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const logger = pino({ level }, sink);
  const app = express();
  app.use(requestId());
  app.use(accessLog(logger));
  app.get('/static/site.css', (_req, res) => res.type('css').send('body{}'));
  app.get('/events/', (_req, res) => res.send('<p>events</p>'));
  app.get('/missing/', (_req, res) => res.status(404).send('no'));
  return { app, lines };
}

const until = async (check: () => boolean) => {
  while (!check()) await new Promise((resolve) => setImmediate(resolve));
};

test('one info line per answer: request id, method, URL, address, status, time; no cookie or token', async () => {
  const { app, lines } = appWithLog('info');
  const first = await request(app).get('/events/?page=2').set('Cookie', 'sessionid=secret-session; csrftoken=secret-token').set('Authorization', 'Bearer secret-bearer');
  const second = await request(app).get('/missing/').set('X-Request-Id', 'from-nginx-0123');
  await until(() => lines.length >= 2);
  expect(lines[0]).toMatchObject({ level: 30, msg: 'request completed', reqId: first.headers['x-request-id'], req: { method: 'GET', url: '/events/?page=2', ip: expect.stringMatching(/127\.0\.0\.1/) }, res: { status: 200 }, responseTime: expect.any(Number) });
  expect(lines[1]).toMatchObject({ reqId: 'from-nginx-0123', req: { url: '/missing/' }, res: { status: 404 } });
  expect(second.headers['x-request-id']).toBe('from-nginx-0123');
  expect(JSON.stringify(lines)).not.toMatch(/secret-/);
});

test('static files are left to the proxy, and nothing is done when info is off', async () => {
  const quiet = appWithLog('warn');
  await request(quiet.app).get('/events/');
  const loud = appWithLog('info');
  await request(loud.app).get('/static/site.css');
  await request(loud.app).get('/events/');
  await until(() => loud.lines.length >= 1);
  expect(quiet.lines).toEqual([]);
  expect(loud.lines.map((l) => (l.req as { url: string }).url)).toEqual(['/events/']);
});
