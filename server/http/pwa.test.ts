import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import request from 'supertest';
import { createTestContext, type TestContext } from '../testing/test-app';
import { pwaRoutes, webManifest } from './pwa';
import { ROOT } from '../paths';
import { THEME_COLOR } from '../../shared/constants';

// The installable site (issue 28 part 2): the manifest every page links, the service worker
// served from the site root without a long cache, and the offline page it keeps.

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t?.close());

describe('the web app manifest', () => {
  test('names the site, starts at / with the whole site in scope, with our icons', async () => {
    const res = await request(t.app).get('/manifest.webmanifest').expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/manifest\+json/);
    const manifest = JSON.parse(res.text);
    expect(manifest).toMatchObject({ name: t.config.site.name, scope: '/', display: 'standalone' });
    expect(manifest.start_url.startsWith('/')).toBe(true);
    const sizes = manifest.icons.map((i: { sizes: string; purpose: string }) => `${i.sizes} ${i.purpose}`);
    expect(sizes).toEqual(expect.arrayContaining(['192x192 any', '512x512 any', '512x512 maskable']));
    for (const icon of manifest.icons) await request(t.app).get(icon.src).expect(200);
  });

  test('the base template links it, with a theme colour and a touch icon', async () => {
    const html = (await request(t.app).get('/accounts/login').expect(200)).text;
    expect(html).toContain('<link rel="manifest" href="/manifest.webmanifest">');
    expect(html).toMatch(/<meta name="theme-color" content="#[0-9a-f]{6}">/);
    expect(html).toContain('rel="apple-touch-icon"');
  });

  test('short_name stays short', () => {
    expect(webManifest({ site: { name: 'A very long city guide name', url: 'http://x' }, city: { name: 'Toronto' } as never }).short_name).toBe('Toronto');
  });
});

describe('the service worker script', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pwa-static-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const app = () => express().use(pwaRoutes(t.config, dir));

  test('is 404 before the islands are built', async () => {
    await request(app()).get('/sw.js').expect(404);
  });

  test('is served at the site root as JavaScript, revalidated every time', async () => {
    fs.mkdirSync(path.join(dir, 'dist', 'sw'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'dist', 'sw', 'sw.js'), 'self.addEventListener("fetch", () => {});');
    const res = await request(app()).get('/sw.js').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/javascript/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['service-worker-allowed']).toBe('/');
    expect(res.text).toContain('addEventListener');
  });

  test('the Content-Security-Policy lets this origin run workers', async () => {
    const res = await request(t.app).get('/manifest.webmanifest');
    expect(res.headers['content-security-policy']).toMatch(/worker-src 'self'/);
  });
});

describe('the offline page', () => {
  test('stands alone: no script, no stylesheet or picture to fetch, links to the saved lists', async () => {
    const res = await request(t.app).get('/offline/').expect(200);
    expect(res.headers['cache-control']).toMatch(/^public/);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.text).toContain("You're offline");
    expect(res.text).toContain('href="/accounts/dashboard/"');
    expect(res.text).not.toMatch(/<script|<link rel="stylesheet"|<img /);
  });
});

describe('the theme colour', () => {
  /** Source files (tests aside) under dir whose text holds the colour, with how often. */
  function holders(dir: string): string[] {
    return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
      const rel = path.join(dir, e.name);
      if (e.isDirectory()) return ['node_modules', 'dist', 'data'].includes(e.name) ? [] : holders(rel);
      if (!/\.(ts|tsx|mjs|njk|css|svg|webmanifest)$/.test(e.name) || /\.test\.tsx?$/.test(e.name)) return [];
      const n = fs.readFileSync(path.join(ROOT, rel), 'utf8').toLowerCase().split(THEME_COLOR).length - 1;
      return n ? [`${rel} ${n}`] : [];
    });
  }

  test('is written once, in shared/constants.ts, and once more only where a file cannot import it', () => {
    const found = ['server', 'shared', 'islands', 'scripts', 'templates', 'static'].flatMap(holders).sort();
    expect(found).toEqual(['shared/constants.ts 1', 'static/css/site.css 1', 'static/img/favicon.svg 1', 'static/img/placeholders/event.svg 1']);
  });

  test('pages, the manifest and the offline page take it from there', async () => {
    expect((await request(t.app).get('/accounts/login')).text).toContain(`<meta name="theme-color" content="${THEME_COLOR}">`);
    expect(JSON.parse((await request(t.app).get('/manifest.webmanifest')).text).theme_color).toBe(THEME_COLOR);
    expect((await request(t.app).get('/offline/')).text.split(THEME_COLOR)).toHaveLength(4);
  });
});
