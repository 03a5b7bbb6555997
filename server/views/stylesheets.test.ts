import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { STATIC_DIR, TEMPLATES_DIR } from '../paths';
import { ViteManifest } from './vite-manifest';

// Each page links one stylesheet, its page type's bundle (static/css/bundles/NAME.css, built by
// vite into one hashed file): a name no bundle has would leave the page unstyled.
const BUNDLES_DIR = path.join(STATIC_DIR, 'css', 'bundles');

function templates(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? templates(path.join(dir, e.name)) : e.name.endsWith('.njk') ? [path.join(dir, e.name)] : []));
}

describe('page stylesheets', () => {
  it('every stylesheet a template names is a bundle, and every bundle imports parts that exist', () => {
    const named = new Map<string, string>();
    for (const file of templates(TEMPLATES_DIR)) {
      const code = fs.readFileSync(file, 'utf8').replace(/\{#[\s\S]*?#\}/g, '');
      for (const m of code.matchAll(/\{%-?\s*set stylesheet = ([^%]+)%\}/g)) {
        for (const [, name] of m[1].matchAll(/'([^']+)'/g)) named.set(name, path.relative(TEMPLATES_DIR, file));
      }
    }
    expect(named.size).toBeGreaterThan(5);
    named.set('base', 'base.njk');
    const missing = [...named].filter(([name]) => !fs.existsSync(path.join(BUNDLES_DIR, `${name}.css`)));
    expect(missing).toEqual([]);

    for (const bundle of fs.readdirSync(BUNDLES_DIR)) {
      const parts = [...fs.readFileSync(path.join(BUNDLES_DIR, bundle), 'utf8').matchAll(/@import '\/static\/css\/([a-z-]+\.css)';/g)].map((m) => m[1]);
      expect({ bundle, first: parts.slice(0, 2) }).toEqual({ bundle, first: ['site.css', 'navbar.css'] });
      for (const part of parts) expect(fs.existsSync(path.join(STATIC_DIR, 'css', part))).toBe(true);
    }
  });

  it('links the built, hashed file when the build has it, and the source before a build', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'manifest-'));
    try {
      const before = new ViteManifest(dir, '/static/dist/');
      expect(before.stylesheet('listing-hub')).toBe('/static/css/bundles/listing-hub.css');

      fs.mkdirSync(path.join(dir, 'dist', '.vite'), { recursive: true });
      fs.writeFileSync(
        path.join(dir, 'dist', '.vite', 'manifest.json'),
        JSON.stringify({ 'static/css/bundles/listing-hub.css': { file: 'assets/css-listing-hub-abc123.css', isEntry: true } }),
      );
      const built = new ViteManifest(dir, '/static/dist/');
      expect(built.stylesheet('listing-hub')).toBe('/static/dist/assets/css-listing-hub-abc123.css');
      expect(built.stylesheet('base')).toBe('/static/css/bundles/base.css');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
