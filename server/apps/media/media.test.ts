import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import sharp from 'sharp';
import { createTestContext, type TestContext } from '../../testing/test-app';
import { createRenditionService, renditionPath, renditionStore, purgeRenditions, warmRenditions } from './renditions';
import { IMAGE_SIZES, type ImageSizeName } from '../../../shared/constants';
import { imageUrl } from '../../../shared/format/image-url';
import { mediaCacheDir, RENDITION_CACHE_CONTROL } from './api';
import { jpegImage, jpegWithGps, pngImage } from './test-images';

// The projects' testTimeout in jest.config.ts is not applied (jest reads it only at the top
// level); a fresh database per file and image work need more than 5 s on a busy machine.
jest.setTimeout(60_000);

describe('the image endpoint /media/{key}', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
    await t.ctx.storage.put('test/wide.jpg', await jpegImage(400, 200));
    await t.ctx.storage.put('test/large.jpg', await jpegImage(1600, 800));
    await t.ctx.storage.put('test/fresh.jpg', await jpegImage(400, 200));
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
    const res = await request(t.app).get('/media/test/wide.jpg?w=80&h=80&cmd=crop');
    expect(res.status).toBe(200);
    expect(res.type).toBe('image/jpeg');
    expect(res.headers['cache-control']).toBe(RENDITION_CACHE_CONTROL);
    const meta = await sharp(res.body).metadata();
    expect([meta.width, meta.height]).toEqual([80, 80]);
    const cached = renditionPath(mediaCacheDir(t.config), 'test/wide.jpg', { w: 80, h: 80, cmd: 'crop', quality: 70 });
    expect(fs.existsSync(cached)).toBe(true);
    const again = await request(t.app).get('/media/test/wide.jpg?cmd=crop&h=80&w=80&quality=70');
    expect(again.headers.etag).toBe(res.headers.etag);
  });

  test('fit keeps the whole picture inside the box and never enlarges', async () => {
    const fit = await request(t.app).get('/media/test/large.jpg?w=720&h=720&cmd=fit');
    expect(fit.status).toBe(200);
    const meta = await sharp(fit.body).metadata();
    expect([meta.width, meta.height]).toEqual([720, 360]);
    const big = await request(t.app).get('/media/test/wide.jpg?w=720&h=720&cmd=fit');
    expect((await sharp(big.body).metadata()).width).toBe(400);
  });

  test('a width alone scales proportionally', async () => {
    const res = await request(t.app).get('/media/test/large.jpg?w=1080&cmd=fit');
    const meta = await sharp(res.body).metadata();
    expect([meta.width, meta.height]).toEqual([1080, 540]);
  });

  test.each(Object.keys(IMAGE_SIZES) as ImageSizeName[])('the size the URL builders print for %s is served', async (size) => {
    const res = await request(t.app).get(imageUrl('test/large.jpg', size));
    expect(res.status).toBe(200);
    expect(res.type).toBe('image/jpeg');
  });

  test.each([
    ['w=600&h=400&cmd=crop', 600, 400],
    ['w=250&h=250&cmd=crop', 250, 250],
  ])("the spec's sizes are served at their exact box (%s: events and saved videos, spec 1 §9)", async (query, w, h) => {
    const res = await request(t.app).get(`/media/test/large.jpg?${query}`);
    expect(res.status).toBe(200);
    const meta = await sharp(res.body).metadata();
    expect([meta.width, meta.height]).toEqual([w, h]);
  });

  test.each(['w=200', 'w=100&h=100&cmd=crop', 'w=80&h=80&cmd=fit', 'w=210&h=140&cmd=crop&quality=30', 'w=1080&h=1080&cmd=fit', 'h=80'])(
    'a size the pages do not use is refused 400, and nothing is resized or written (%s)',
    async (query) => {
      const dir = path.join(mediaCacheDir(t.config), 'test/fresh.jpg');
      const res = await request(t.app).get(`/media/test/fresh.jpg?${query}`);
      expect(res.status).toBe(400);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(Object.keys(res.body)).toEqual([query.includes('quality') ? 'quality' : 'non_field_errors']);
      expect(fs.existsSync(dir)).toBe(false);
    },
  );

  test('300 distinct sizes make no new files: the rendition store stays bounded', async () => {
    const cacheDir = mediaCacheDir(t.config);
    const countFiles = () => (fs.existsSync(cacheDir) ? fs.readdirSync(cacheDir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length : 0);
    const before = countFiles();
    const statuses: number[] = [];
    for (let i = 0; i < 300; i += 30) {
      const batch = await Promise.all(Array.from({ length: 30 }, (_, j) => request(t.app).get(`/media/test/large.jpg?w=${100 + i + j}&h=${50 + i + j}&cmd=crop`)));
      statuses.push(...batch.map((r) => r.status));
    }
    expect(new Set(statuses)).toEqual(new Set([400]));
    expect(countFiles()).toBe(before);
    // An allowed size still renders at once: the refused ones queued no resize before it.
    expect((await request(t.app).get(imageUrl('test/large.jpg', 'listingCard'))).status).toBe(200);
  });

  test('the service itself renders and pre-renders only IMAGE_SIZES', async () => {
    const service = createRenditionService({ storage: t.ctx.storage, renditions: renditionStore(t.ctx), logger: t.ctx.logger });
    expect(() => service.rendition('test/fresh.jpg', { w: 99, h: 99, cmd: 'crop', quality: 70 })).toThrow();
    await expect(warmRenditions(renditionStore(t.ctx), 'test/fresh.jpg', await jpegImage(400, 200), [{ w: 99, h: 99, cmd: 'crop', quality: 70 }])).rejects.toThrow();
    expect(fs.existsSync(path.join(mediaCacheDir(t.config), 'test/fresh.jpg'))).toBe(false);
  });

  test('answers 304 Not Modified to a matching If-None-Match', async () => {
    const first = await request(t.app).get('/media/test/wide.jpg?w=210&h=140&cmd=crop');
    const second = await request(t.app).get('/media/test/wide.jpg?w=210&h=140&cmd=crop').set('If-None-Match', first.headers.etag);
    expect(second.status).toBe(304);
    expect(second.body).toHaveLength(0);
    const stale = await request(t.app).get('/media/test/wide.jpg?w=210&h=140&cmd=crop').set('If-None-Match', '"something-else"');
    expect(stale.status).toBe(200);
  });

  test('transparent PNGs stay PNG', async () => {
    const res = await request(t.app).get('/media/test/clear.png?w=80&h=80&cmd=crop');
    expect(res.status).toBe(200);
    expect(res.type).toBe('image/png');
    expect((await sharp(res.body).metadata()).hasAlpha).toBe(true);
  });

  test('renditions are turned upright by the EXIF orientation', async () => {
    const res = await request(t.app).get('/media/test/upright.jpg?w=1080&cmd=fit');
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

  test.each(['/media/test/missing.jpg', '/media/test/notes.txt', '/media/..%2F..%2Fetc%2Fpasswd', '/media/test/../wide.jpg', '/media/test/broken.jpg?w=80&h=80&cmd=crop'])(
    'answers 404 for %s',
    async (url) => {
      const res = await request(t.app).get(url);
      expect(res.status).toBe(404);
    },
  );

  test('concurrent first requests for one rendition resize it once', async () => {
    const service = createRenditionService({ storage: t.ctx.storage, renditions: renditionStore(t.ctx), logger: t.ctx.logger });
    await t.ctx.storage.put('test/concurrent.jpg', await jpegImage(400, 200));
    const params = { w: 340, h: 340, cmd: 'crop' as const, quality: 70 };
    const results = await Promise.all(Array.from({ length: 8 }, () => service.rendition('test/concurrent.jpg', params)));
    expect(service.resizeCount).toBe(1);
    expect(new Set(results.map((r) => (r && 'key' in r.source ? r.source.key : null))).size).toBe(1);
    // A later request reads the disk cache: still one resize.
    await service.rendition('test/concurrent.jpg', params);
    expect(service.resizeCount).toBe(1);
  });

  test('purging a key removes all its renditions', async () => {
    await request(t.app).get('/media/test/wide.jpg?w=340&h=340&cmd=crop');
    const dir = path.join(mediaCacheDir(t.config), 'test/wide.jpg');
    expect(fs.readdirSync(dir).length).toBeGreaterThan(0);
    await purgeRenditions(renditionStore(t.ctx), 'test/wide.jpg');
    expect(fs.existsSync(dir)).toBe(false);
  });
});
