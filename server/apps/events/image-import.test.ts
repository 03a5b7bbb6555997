import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import request from 'supertest';
import { createTestContext, type TestContext } from '../../testing/test-app';
import { createEvent } from '../../testing/fixtures';
import { importEventImages } from './image-import';

// A local server stands in for the outside host the city's feed points at.
let t: TestContext;
let source: http.Server;
let base: string;
let jpeg: Buffer;

beforeAll(async () => {
  t = await createTestContext();
  jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#c8102e' } }).jpeg().toBuffer();
  source = http.createServer((req, res) => {
    if (req.url === '/festival.jpg') res.writeHead(200, { 'content-type': 'image/jpeg' }).end(jpeg);
    else if (req.url === '/page.html') res.writeHead(200, { 'content-type': 'image/jpeg' }).end('<html>not a picture</html>');
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(source.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => source.close(resolve));
  await t.close();
});

async function importedEvent(url: string) {
  const id = await createEvent(t.ctx.db, { title: `Festival ${url}` });
  await t.ctx.db('events').where({ id }).update({ image_key: 'seed/events-1.jpg', image_url: null, image_source_url: url, image_credit: 'Toronto Jazz Festival, via City of Toronto Festivals & Events' });
  return id;
}

test('copies a source picture into the media store and credits it on the page; failures keep the placeholder', async () => {
  const good = await importedEvent(`${base}/festival.jpg`);
  const missing = await importedEvent(`${base}/gone.jpg`);
  const notImage = await importedEvent(`${base}/page.html`);

  const result = await importEventImages(t.ctx.db, t.ctx.storage, { timeoutMs: 5000 });
  expect(result.copied).toBe(1);
  expect(result.failed.map((f) => [f.id, f.reason]).sort()).toEqual([[missing, 'HTTP 404'], [notImage, 'not an image']].sort());

  const row = await t.ctx.db('events').where({ id: good }).first('image_key', 'image_url');
  expect(row.image_key).toMatch(new RegExp(`^events/imported/${good}-[0-9a-f]{16}\\.jpg$`));
  expect(await t.ctx.storage.get(row.image_key)).toEqual(jpeg);
  expect((await t.ctx.db('events').where({ id: missing }).first('image_key')).image_key).toBe('seed/events-1.jpg');

  // The page shows our copy (a rendition), never the outside address, and credits the source.
  const page = await request(t.app).get(`/events/festival-${good}/`).redirects(1);
  expect(page.status).toBe(200);
  expect(page.text).toContain(`src="/media/events/imported/${good}-`);
  expect(page.text).not.toContain(`src="${base}`);
  expect(page.text).toContain('Image: Toronto Jazz Festival, via City of Toronto Festivals &amp; Events');
  // The placeholder picture carries no credit: it is not the source's.
  const placeholder = await request(t.app).get(`/events/festival-${missing}/`).redirects(1);
  expect(placeholder.text).not.toContain('Image: Toronto Jazz');
  expect(placeholder.text).toContain('data-fallback="/static/img/placeholders/event.svg"');

  // Running it again fetches nothing new.
  expect((await importEventImages(t.ctx.db, t.ctx.storage, { timeoutMs: 5000 })).copied).toBe(0);
});
