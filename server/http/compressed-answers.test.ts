import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import compression from 'compression';
import express from 'express';
import request from 'supertest';
import { rawGet } from '../testing/raw-get';
import { COMPRESS } from './guest-response-cache';
import { COMPRESS_ONCE, compressedAnswers } from './compressed-answers';

// A read API's answer is compressed quickly the first time its body is seen, once more at
// full quality the second time, and that copy is what every later request for the same bytes
// gets; different bytes are never answered with it.

const BROWSER = 'gzip, deflate, br';

function appWith() {
  // Kept copies (full quality) and first-sight compressions, counted apart.
  const calls = { br: 0, gzip: 0 };
  const once = { br: 0, gzip: 0 };
  const counted = {
    br: (b: Buffer) => ((calls.br += 1), COMPRESS.br(b)),
    gzip: (b: Buffer) => ((calls.gzip += 1), COMPRESS.gzip(b)),
  };
  const countedOnce = {
    br: (b: Buffer) => ((once.br += 1), COMPRESS_ONCE.br(b)),
    gzip: (b: Buffer) => ((once.gzip += 1), COMPRESS_ONCE.gzip(b)),
  };
  const app = express();
  app.use(compression());
  app.use(compressedAnswers({ compress: counted, compressOnce: countedOnce }));
  // A list whose rows name the ?who= visitor: the same bytes for everybody unless ?who= is given.
  const list = (who: string) => ({ count: 300, results: Array.from({ length: 300 }, (_, i) => ({ id: i, name: `Place ${i}`, mine: who === String(i) })) });
  app.get('/api/list/', (req, res) => {
    res.locals.commonAnswer = true;
    res.set('Cache-Control', String(req.query.cc ?? 'public, max-age=10'));
    res.json(list(String(req.query.who ?? '')));
  });
  app.get('/api/own/', (_req, res) => res.json(list('')));
  app.get('/api/small/', (_req, res) => {
    res.locals.commonAnswer = true;
    res.json({ ok: true });
  });
  return { app, calls, once, list };
}

async function raw(app: express.Express, path: string, encoding: string) {
  const res = await rawGet(app, path, { 'Accept-Encoding': encoding });
  const enc = res.headers['content-encoding'];
  const text = enc === 'br' ? brotliDecompressSync(res.body).toString() : enc === 'gzip' ? gunzipSync(res.body).toString() : res.body.toString();
  return { res, text };
}

describe('compressed answers, one copy per distinct body', () => {
  test('the same body is kept compressed once per encoding from its second request on, and every copy decodes to it', async () => {
    const { app, calls, once, list } = appWith();
    const first = await raw(app, '/api/list/', BROWSER);
    expect(once).toEqual({ br: 1, gzip: 0 });
    expect(calls).toEqual({ br: 0, gzip: 0 });
    const second = await raw(app, '/api/list/', BROWSER);
    const third = await raw(app, '/api/list/', BROWSER);
    expect(first.res.headers['content-encoding']).toBe('br');
    expect(second.res.headers['content-encoding']).toBe('br');
    expect(JSON.parse(first.text)).toEqual(list(''));
    expect(second.text).toBe(first.text);
    expect(third.text).toBe(first.text);
    // The quick first copy was not kept: the second request made the full-quality one, the third reused it.
    expect(third.res.body.equals(second.res.body)).toBe(true);
    expect(once).toEqual({ br: 1, gzip: 0 });
    expect(calls).toEqual({ br: 1, gzip: 0 });
    expect(first.res.headers.vary).toMatch(/Accept-Encoding/);
    expect(Number(first.res.headers['content-length'])).toBe(first.res.body.length);

    const gzipped = await raw(app, '/api/list/', 'gzip');
    expect(gzipped.res.headers['content-encoding']).toBe('gzip');
    expect(gzipped.text).toBe(first.text);
    // One ETag for the body, whatever its encoding.
    expect(gzipped.res.headers.etag).toBe(first.res.headers.etag);
    await raw(app, '/api/list/', 'gzip');
    await raw(app, '/api/list/', 'gzip');
    expect(once).toEqual({ br: 1, gzip: 1 });
    expect(calls).toEqual({ br: 1, gzip: 1 });
  });

  test('another body gets its own copy: nobody is answered with somebody else’s bytes', async () => {
    const { app, calls, list } = appWith();
    await raw(app, '/api/list/', BROWSER);
    const everybody = await raw(app, '/api/list/', BROWSER);
    await raw(app, '/api/list/?who=7', BROWSER);
    const mine = await raw(app, '/api/list/?who=7', BROWSER);
    expect(JSON.parse(mine.text)).toEqual(list('7'));
    expect(mine.text).not.toBe(everybody.text);
    expect(mine.res.headers.etag).not.toBe(everybody.res.headers.etag);
    expect(calls.br).toBe(2);
    const everybodyAgain = await raw(app, '/api/list/', BROWSER);
    expect(everybodyAgain.text).toBe(everybody.text);
    expect(calls.br).toBe(2);
  });

  test('a client that takes no compression gets the plain body; a known ETag gets a 304; a HEAD request compresses nothing', async () => {
    const { app, calls, once } = appWith();
    const plain = await raw(app, '/api/list/', 'identity');
    expect(plain.res.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(plain.text).count).toBe(300);
    const etag = plain.res.headers.etag as string;
    const again = await rawGet(app, '/api/list/', { 'Accept-Encoding': BROWSER, 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(again.headers['content-encoding']).toBeUndefined();
    const head = await request(app).head('/api/list/').set('Accept-Encoding', BROWSER);
    expect(head.status).toBe(200);
    expect(head.headers['content-type']).toMatch(/application\/json/);
    expect(calls).toEqual({ br: 0, gzip: 0 });
    expect(once).toEqual({ br: 0, gzip: 0 });
  });

  test('answers not declared common, small ones and no-transform ones go to the compression middleware as before', async () => {
    const { app, calls, once } = appWith();
    const own = await raw(app, '/api/own/', BROWSER);
    expect(own.res.headers['content-encoding']).toBe('br');
    expect(JSON.parse(own.text).count).toBe(300);
    const small = await raw(app, '/api/small/', BROWSER);
    expect(small.res.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.text)).toEqual({ ok: true });
    const untouched = await raw(app, '/api/list/?cc=no-transform', BROWSER);
    expect(untouched.res.headers['content-encoding']).toBeUndefined();
    expect(calls).toEqual({ br: 0, gzip: 0 });
    expect(once).toEqual({ br: 0, gzip: 0 });
  });
});
