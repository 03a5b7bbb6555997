import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import sharp from 'sharp';
import { createTestContext, type TestContext } from '../../testing/test-app';
import { createRenditionService, renditionPath, purgeRenditions } from './renditions';
import { mediaCacheDir, RENDITION_CACHE_CONTROL } from './routes';
import { jpegImage, jpegWithGps, pngImage } from './test-images';

// The projects' testTimeout in jest.config.ts is not applied (jest reads it only at the top
// level); a fresh database per file and image work need more than 5 s on a busy machine.
jest.setTimeout(60_000);

describe('the image endpoint /media/{key}', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
    await t.ctx.storage.put('test/wide.jpg', await jpegImage(400, 200));
    await t.ctx.storage.put('test/clear.png', await pngImage(40, 30));
    await t.ctx.storage.put('test/upright.jpg', await jpegWithGps(60, 40, 6));
    await t.ctx.storage.put('test/notes.txt', Buffer.from('not an image'));
    await t.ctx.storage.put('test/broken.jpg', Buffer.from('not really a jpeg'));
  });
  afterAll(() => t.close());

  test('answers the stored original when no size is asked for', async () => {
    const res = await request(t.app).get('/media/test/wide.jpg');
    expect(res.status).toBe(200);
    expect(res.type).toBe('image/jpeg');
    expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(res.headers['cache-control']).toBe('public, max-age=86400');
    expect((await sharp(res.body).metadata()).width).toBe(400);
  });

  test('crops to the exact box, caches the rendition on disk and marks it immutable', async () => {
    const res = await request(t.app).get('/media/test/wide.jpg?w=100&h=100&cmd=crop');
    expect(res.status).toBe(200);
    expect(res.type).toBe('image/jpeg');
    expect(res.headers['cache-control']).toBe(RENDITION_CACHE_CONTROL);
    const meta = await sharp(res.body).metadata();
    expect([meta.width, meta.height]).toEqual([100, 100]);
    const cached = renditionPath(mediaCacheDir(t.config), 'test/wide.jpg', { w: 100, h: 100, cmd: 'crop', quality: 70 });
    expect(fs.existsSync(cached)).toBe(true);
    const again = await request(t.app).get('/media/test/wide.jpg?cmd=crop&h=100&w=100');
    expect(again.headers.etag).toBe(res.headers.etag);
  });

  test('fit keeps the whole picture inside the box and never enlarges', async () => {
    const fit = await request(t.app).get('/media/test/wide.jpg?w=100&h=100&cmd=fit');
    expect(fit.status).toBe(200);
    const meta = await sharp(fit.body).metadata();
    expect([meta.width, meta.height]).toEqual([100, 50]);
    const big = await request(t.app).get('/media/test/wide.jpg?w=1000&h=1000&cmd=fit');
    expect((await sharp(big.body).metadata()).width).toBe(400);
  });

  test('a width alone scales proportionally; quality changes the bytes', async () => {
    const res = await request(t.app).get('/media/test/wide.jpg?w=200');
    const meta = await sharp(res.body).metadata();
    expect([meta.width, meta.height]).toEqual([200, 100]);
    const low = await request(t.app).get('/media/test/wide.jpg?w=200&quality=30');
    expect(low.status).toBe(200);
    expect(low.headers.etag).not.toBe(res.headers.etag);
  });

  test('answers 304 Not Modified to a matching If-None-Match', async () => {
    const first = await request(t.app).get('/media/test/wide.jpg?w=50&h=50');
    const second = await request(t.app).get('/media/test/wide.jpg?w=50&h=50').set('If-None-Match', first.headers.etag);
    expect(second.status).toBe(304);
    expect(second.body).toHaveLength(0);
    const stale = await request(t.app).get('/media/test/wide.jpg?w=50&h=50').set('If-None-Match', '"something-else"');
    expect(stale.status).toBe(200);
  });

  test('transparent PNGs stay PNG', async () => {
    const res = await request(t.app).get('/media/test/clear.png?w=20&h=15');
    expect(res.status).toBe(200);
    expect(res.type).toBe('image/png');
    expect((await sharp(res.body).metadata()).hasAlpha).toBe(true);
  });

  test('renditions are turned upright by the EXIF orientation', async () => {
    const res = await request(t.app).get('/media/test/upright.jpg?w=40&cmd=fit');
    const meta = await sharp(res.body).metadata();
    expect([meta.width, meta.height]).toEqual([40, 60]);
    expect(meta.exif).toBeUndefined();
  });

  test.each([
    ['w=2001', 'w'],
    ['h=0', 'h'],
    ['w=abc', 'w'],
    ['w=-5', 'w'],
    ['quality=10', 'quality'],
    ['quality=96', 'quality'],
    ['cmd=zoom&w=10', 'cmd'],
    ['w=10&w=20', 'w'],
  ])('refuses out-of-bounds sizes before resizing anything (%s)', async (query, field) => {
    const res = await request(t.app).get(`/media/test/wide.jpg?${query}`);
    expect(res.status).toBe(400);
    expect(Object.keys(res.body)).toEqual([field]);
  });

  test.each(['/media/test/missing.jpg', '/media/test/notes.txt', '/media/..%2F..%2Fetc%2Fpasswd', '/media/test/../wide.jpg', '/media/test/broken.jpg?w=10'])(
    'answers 404 for %s',
    async (url) => {
      const res = await request(t.app).get(url);
      expect(res.status).toBe(404);
    },
  );

  test('concurrent first requests for one rendition resize it once', async () => {
    const service = createRenditionService({ storage: t.ctx.storage, cacheDir: mediaCacheDir(t.config), logger: t.ctx.logger });
    const params = { w: 123, h: 45, cmd: 'crop' as const, quality: 71 };
    const results = await Promise.all(Array.from({ length: 8 }, () => service.rendition('test/wide.jpg', params)));
    expect(service.resizeCount).toBe(1);
    expect(new Set(results.map((r) => r?.etag)).size).toBe(1);
    // A later request reads the disk cache: still one resize.
    await service.rendition('test/wide.jpg', params);
    expect(service.resizeCount).toBe(1);
  });

  test('purging a key removes all its renditions', async () => {
    await request(t.app).get('/media/test/wide.jpg?w=30&h=30');
    const dir = path.join(mediaCacheDir(t.config), 'test/wide.jpg');
    expect(fs.readdirSync(dir).length).toBeGreaterThan(0);
    await purgeRenditions(mediaCacheDir(t.config), 'test/wide.jpg');
    expect(fs.existsSync(dir)).toBe(false);
  });
});
