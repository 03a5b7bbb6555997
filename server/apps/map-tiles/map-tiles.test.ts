import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import sharp from 'sharp';
import { createTestContext, type TestContext } from '../../testing/test-app';
import { createListing, createListingType } from '../../testing/fixtures';
import { loadConfig } from '../../config';
import { mapOrigins } from '../../http/security-headers';
import { createSmallDisk } from '../../testing/small-disk';
import { mapContext, mercator, staticMapSvg } from './static-map';
import { pmtilesDir } from './api';

// The base map's files: a .pmtiles extract served from DATA_DIR with HTTP Range requests, the
// listing page's static map image, the configuration and the CSP that follows it.

const image = (res: request.Response) => Buffer.from(res.body as Buffer);
const binary = (res: request.Response, cb: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
};

// A map's tiles and images are asked for by a page that already set the csrftoken cookie; a
// first visit's answer sets that cookie and is therefore private (set-cookie-private.ts).
const RETURNING_VISITOR = `csrftoken=${'t'.repeat(43)}`;

describe('map tiles app', () => {
  let t: TestContext;
  let listingId: number;
  let noPointId: number;
  const bytes = Buffer.from(Array.from({ length: 4096 }, (_, i) => i % 251));

  beforeAll(async () => {
    t = await createTestContext();
    const typeId = await createListingType(t.ctx.db, { name: 'Restaurants', slug: 'restaurants' });
    listingId = await createListing(t.ctx.db, { name: 'Pizzeria Libretto', type_id: typeId, latitude: 43.6505, longitude: -79.3902 });
    noPointId = await createListing(t.ctx.db, { name: 'Nowhere', type_id: typeId, latitude: null, longitude: null });
    fs.mkdirSync(pmtilesDir(t.ctx.config), { recursive: true });
    fs.writeFileSync(path.join(pmtilesDir(t.ctx.config), 'toronto.pmtiles'), bytes);
  });
  afterAll(() => t.close());

  test('a .pmtiles file answers Range requests with 206 and exactly the bytes asked for', async () => {
    const res = await request(t.app).get('/map-tiles/toronto.pmtiles').set('Cookie', RETURNING_VISITOR).set('Range', 'bytes=100-227').buffer(true).parse(binary);
    expect(res.status).toBe(206);
    expect(res.headers['content-range']).toBe('bytes 100-227/4096');
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.headers['cache-control']).toBe('public, max-age=86400');
    expect(Buffer.compare(res.body as Buffer, bytes.subarray(100, 228))).toBe(0);
    const whole = await request(t.app).get('/map-tiles/toronto.pmtiles').buffer(true).parse(binary);
    expect(whole.status).toBe(200);
    expect((whole.body as Buffer).length).toBe(4096);
    const outside = await request(t.app).get('/map-tiles/toronto.pmtiles').set('Range', 'bytes=5000-6000');
    expect(outside.status).toBe(416);
  });

  test('only NAME.pmtiles files of DATA_DIR/map-tiles are served', async () => {
    for (const p of ['/map-tiles/missing.pmtiles', '/map-tiles/..%2Fsession-secret', '/map-tiles/toronto.json', '/map-tiles/.hidden.pmtiles']) {
      const res = await request(t.app).get(p);
      expect([p, res.status]).toEqual([p, 404]);
    }
  });

  test('the static map is a 1080x300 PNG of the context around the place, cached and revalidated', async () => {
    const res = await request(t.app).get(`/static-maps/listings/${listingId}.png`).set('Cookie', RETURNING_VISITOR).buffer(true).parse(binary);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['cache-control']).toBe('public, max-age=86400');
    const meta = await sharp(image(res)).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 1080, 300]);
    // The middle is the place's marker (blue), not the plain ground.
    const { data, info } = await sharp(image(res)).extract({ left: 536, top: 146, width: 8, height: 8 }).raw().toBuffer({ resolveWithObject: true });
    expect(info.channels).toBeGreaterThanOrEqual(3);
    expect(data[2]).toBeGreaterThan(150);
    const again = await request(t.app).get(`/static-maps/listings/${listingId}.png`).set('If-None-Match', res.headers.etag);
    expect(again.status).toBe(304);
    expect(fs.readdirSync(path.join(t.ctx.config.dataDir, 'map-cache')).filter((f) => f.endsWith('.png'))).toHaveLength(1);
  });

  test('a static map that cannot be written (a full disk) leaves no half-written file, and the next request makes it', async () => {
    const typeId = await createListingType(t.ctx.db, { name: 'Bars', slug: 'bars' });
    const id = await createListing(t.ctx.db, { name: 'Bar Raval', type_id: typeId, latitude: 43.6556, longitude: -79.4101 });
    const disk = await createSmallDisk(path.join(t.ctx.config.dataDir, 'map-cache'), 'fault-injection');
    const before = disk.files();
    try {
      await disk.fill(100);
      const failed = await request(t.app).get(`/static-maps/listings/${id}.png`);
      expect(failed.status).toBeGreaterThanOrEqual(500);
      expect(disk.files()).toEqual(before);
    } finally {
      await disk.close();
    }
    const res = await request(t.app).get(`/static-maps/listings/${id}.png`).buffer(true).parse(binary);
    expect(res.status).toBe(200);
    expect(disk.files().filter((f) => !before.includes(f))).toEqual([expect.stringMatching(/\.png$/)]);
  });

  test('no static map for a place without coordinates, an unknown place or a bad name', async () => {
    for (const p of [`/static-maps/listings/${noPointId}.png`, '/static-maps/listings/99999999.png', '/static-maps/listings/0.png', '/static-maps/listings/abc.png', `/static-maps/listings/${listingId}.jpg`]) {
      const res = await request(t.app).get(p);
      expect([p, res.status]).toEqual([p, 404]);
    }
  });

  test('the static map draws the same layers as the interactive map: lake, neighbourhoods, subway with station names', () => {
    // Union station at zoom 14: the harbour is in view, so are Line 1 and its stations.
    const svg = staticMapSvg(43.6453, -79.3806);
    expect(svg).toContain('fill="#a9cfe8"'); // the lake
    expect(svg).toContain('stroke="#f8c300"'); // Line 1
    expect(svg).toMatch(/>Union<\/text>/);
    expect(svg).toMatch(/>St Andrew<\/text>/);
    expect(svg).toMatch(/>HARBOURFRONT-CITYPLACE<\/text>/);
    // A point in the middle of the map is the centre of the image.
    const [cx] = mercator(-79.3806, 43.6453, 14);
    const [ux] = mercator(-79.3806 + 360 / (256 * 2 ** 14), 43.6453, 14);
    expect(Math.round(ux - cx)).toBe(1);
  });

  test('the static map draws the streets and names the nearest ones along their lines (Queen and Spadina)', () => {
    const svg = staticMapSvg(43.649, -79.3975);
    const names = [...svg.matchAll(/<text [^>]*class="street-label">([^<]+)<\/text>/g)].map((m) => m[1]);
    expect(names).toEqual(expect.arrayContaining(['Queen St W', 'Spadina Ave']));
    expect(names.length).toBeLessThanOrEqual(6);
    // Set along the street: Queen St W runs a little north of east, so its name is turned a little.
    const queen = /transform="rotate\((-?[\d.]+) [^"]*"[^>]*class="street-label">Queen St W</.exec(svg)!;
    expect(Number(queen[1])).toBeGreaterThan(-30);
    expect(Number(queen[1])).toBeLessThan(-5);
    // Away from the place, the outskirts with few food premises have few streets, and no name is invented.
    expect(staticMapSvg(43.6, -79.2)).not.toContain('class="street-label"');
  });

  test('the context data: one lake shore, the city outline, 158 neighbourhoods and three subway lines through their stations in order', () => {
    const features = mapContext().map((f) => f.feature);
    const count = (layer: string) => features.filter((f) => f.properties.layer === layer).length;
    expect([count('city'), count('neighbourhood'), count('neighbourhood-label'), count('line'), count('station')]).toEqual([1, 158, 158, 3, 70]);
    expect(count('lake')).toBeGreaterThanOrEqual(1);
    const line = (n: string) => features.find((f) => f.properties.layer === 'line' && f.properties.line === n)!.geometry.coordinates as number[][];
    const station = (name: string) => features.find((f) => f.properties.layer === 'station' && f.properties.name === name)!.geometry.coordinates;
    // Line 1 is a U: Vaughan to Union down the west side, Union to Finch up Yonge.
    const l1 = line('1');
    expect(l1).toHaveLength(38);
    expect(l1[0]).toEqual(station('Vaughan Metropolitan Centre'));
    expect(l1[21]).toEqual(station('Union'));
    expect(l1[37]).toEqual(station('Finch'));
    // Line 2 runs west to east, Kipling to Kennedy; Line 4 from Sheppard-Yonge to Don Mills.
    const l2 = line('2');
    expect(l2.every((p, i) => i === 0 || p[0] > l2[i - 1][0])).toBe(true);
    expect([l2[0], l2[30]]).toEqual([station('Kipling'), station('Kennedy')]);
    expect(line('4')).toEqual(['Sheppard-Yonge', 'Bayview', 'Bessarion', 'Leslie', 'Don Mills'].map(station));
  });
});

describe('map configuration', () => {
  test('MAP_STYLE_URL and MAP_PMTILES_URL are validated, and the CSP allows what they name', () => {
    const none = loadConfig({ NODE_ENV: 'test' });
    expect(none.map).toEqual({ styleUrl: null, pmtilesUrl: null });
    expect(mapOrigins(none)).toEqual([]);
    const hosted = loadConfig({ NODE_ENV: 'test', MAP_STYLE_URL: 'https://tiles.openfreemap.org/styles/liberty' });
    expect(mapOrigins(hosted)).toEqual(['https://tiles.openfreemap.org']);
    const own = loadConfig({ NODE_ENV: 'test', MAP_PMTILES_URL: '/map-tiles/toronto.pmtiles' });
    expect(own.map.pmtilesUrl).toBe('/map-tiles/toronto.pmtiles');
    expect(mapOrigins(own)).toEqual([]);
    expect(mapOrigins(loadConfig({ NODE_ENV: 'test', MAP_PMTILES_URL: 'https://cdn.example.com/t/toronto.pmtiles' }))).toEqual(['https://cdn.example.com']);
    expect(() => loadConfig({ NODE_ENV: 'test', MAP_STYLE_URL: 'javascript:alert(1)' })).toThrow(/MAP_STYLE_URL/);
    expect(() => loadConfig({ NODE_ENV: 'test', MAP_PMTILES_URL: '/etc/passwd' })).toThrow(/MAP_PMTILES_URL/);
  });

  test('the page CSP connect-src follows the configuration', async () => {
    const plain = await createTestContext();
    const hosted = await createTestContext({ MAP_STYLE_URL: 'https://tiles.openfreemap.org/styles/liberty' });
    try {
      const a = await request(plain.app).get('/healthz-nothing');
      expect(a.headers['content-security-policy']).toMatch(/connect-src 'self';/);
      const b = await request(hosted.app).get('/healthz-nothing');
      expect(b.headers['content-security-policy']).toContain("connect-src 'self' https://tiles.openfreemap.org;");
      const page = await request(hosted.app).get('/');
      expect(page.text).toContain('"map":{"styleUrl":"https://tiles.openfreemap.org/styles/liberty","pmtilesUrl":null}');
    } finally {
      await plain.close();
      await hosted.close();
    }
  });
});
