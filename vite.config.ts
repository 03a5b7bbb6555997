import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

// One entry per island folder (islands/<name>/main.tsx); the server reads the manifest to print
// each page's script tags. Vendor code is split into shared chunks so islands on one page
// download React and Redux once.
// Loaded as an ES module (--configLoader runner in every script), so no __dirname.
const root = path.dirname(fileURLToPath(import.meta.url));
const islandsDir = path.resolve(root, 'islands');
const input = Object.fromEntries(
  fs
    .readdirSync(islandsDir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(islandsDir, d.name, 'main.tsx')))
    .map((d) => [d.name, path.join(islandsDir, d.name, 'main.tsx')]),
);
// One stylesheet per page type (static/css/bundles/NAME.css, the @imports of its parts in cascade
// order), built into one minified, content-hashed file: a page waits for one stylesheet, not
// five, and keeps it a year like the islands. Templates name theirs: {% set stylesheet = 'NAME' %}.
const cssBundlesDir = path.resolve(root, 'static', 'css', 'bundles');
const cssInput = Object.fromEntries(
  fs
    .readdirSync(cssBundlesDir)
    .filter((f) => f.endsWith('.css'))
    .map((f) => [`css-${f.replace(/\.css$/, '')}`, path.join(cssBundlesDir, f)]),
);

// The service worker (islands/offline/sw/service-worker.ts, issue 28 part 2) is built after the
// islands, as one classic script with Workbox inside (a module worker's imports could not come
// from the islands' shared chunks anyway), into static/dist/sw/sw.js; the server sends it as
// /sw.js so that it controls the whole site (server/http/pwa.ts). Its name is fixed: browsers
// find a new version by comparing the bytes at that URL.
function serviceWorker(): Plugin {
  let watching = false;
  return {
    name: 'city-guide-service-worker',
    apply: 'build',
    configResolved(config) {
      watching = Boolean(config.build.watch);
    },
    async closeBundle() {
      await build({
        configFile: false,
        root,
        logLevel: 'warn',
        publicDir: false,
        define: { 'process.env.NODE_ENV': JSON.stringify(watching ? 'development' : 'production') },
        build: {
          outDir: 'static/dist/sw',
          emptyOutDir: true,
          target: 'es2022',
          minify: true,
          sourcemap: false,
          copyPublicDir: false,
          lib: { entry: path.join(islandsDir, 'offline', 'sw', 'service-worker.ts'), formats: ['iife'], name: 'cityGuideServiceWorker', fileName: () => 'sw.js' },
          rolldownOptions: { checks: { pluginTimings: false } },
        },
      });
    },
  };
}

export default defineConfig({
  root,
  base: '/static/dist/',
  publicDir: false,
  plugins: [react(), serviceWorker()],
  build: {
    outDir: 'static/dist',
    emptyOutDir: true,
    manifest: true,
    sourcemap: true,
    target: 'es2022',
    // MapLibre alone is ~1 MB minified (300 KB gzip) and is only ever loaded lazily by map
    // islands; every other chunk stays far below 500 kB, and `npx tsx scripts/js-budget.ts`
    // checks each page's JS without it against the 120 KB gzip budget.
    chunkSizeWarningLimit: 1100,
    rolldownOptions: {
      input: { ...input, ...cssInput },
      // Rolldown's note on slow plugin callbacks is about React's transform on a busy machine,
      // nothing to act on; a quiet build shows only what needs attention.
      checks: { pluginTimings: false },
      output: {
        codeSplitting: {
          groups: [
            { name: 'vendor-maplibre', test: /node_modules[\\/]maplibre-gl/, priority: 30 },
            { name: 'vendor-react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 20 },
            { name: 'vendor-redux', test: /node_modules[\\/](@reduxjs|redux|redux-saga|@redux-saga|react-redux|reselect|immer|use-sync-external-store)[\\/]/, priority: 20 },
            { name: 'vendor-router', test: /node_modules[\\/](react-router|react-router-dom)[\\/]/, priority: 15 },
          ],
        },
      },
    },
  },
});
