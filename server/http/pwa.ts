import fs from 'node:fs';
import path from 'node:path';
import { Router } from 'express';
import type { Config } from '../config';
import { PWA_PATHS, THEME_COLOR } from '../../shared/constants';

// The installable web app (issue 28 part 2): the web app manifest, the service worker and the
// page it shows offline. Infrastructure for every page, so the core serves it, not an app.
// The service worker is built by vite.config.ts into static/dist/sw/sw.js (islands/offline/sw/)
// and served here from the site root, so its scope is the whole site without a
// Service-Worker-Allowed header. It must never be kept long: the browser compares its bytes to
// find a new version, and an hour-old copy would hold back a deploy's fixes.

export const SERVICE_WORKER_PATH = PWA_PATHS.serviceWorker;
export const WEB_MANIFEST_PATH = PWA_PATHS.manifest;
export const OFFLINE_PAGE_PATH = PWA_PATHS.offlinePage;

export function webManifest(config: Pick<Config, 'site' | 'city'>) {
  return {
    name: config.site.name,
    short_name: config.site.name.length <= 12 ? config.site.name : config.city.name,
    description: `What to eat, see and do in ${config.city.name}, with your saved lists on hand offline.`,
    lang: 'en-CA',
    start_url: '/?source=pwa',
    scope: '/',
    display: 'standalone',
    background_color: '#ffffff',
    theme_color: THEME_COLOR,
    icons: [
      { src: '/static/img/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/static/img/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/static/img/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
      { src: '/static/img/favicon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
    ],
    shortcuts: [{ name: 'Your saved lists', url: '/accounts/dashboard/' }],
  };
}

export function pwaRoutes(config: Config, staticDir: string): Router {
  const router = Router();
  const workerFile = path.join(staticDir, 'dist', 'sw', 'sw.js');
  const manifestBody = JSON.stringify(webManifest(config));

  router.get(SERVICE_WORKER_PATH, (_req, res, next) => {
    fs.readFile(workerFile, (err, body) => {
      // Islands not built yet: an ordinary 404; the pages still work without a worker.
      if (err) return next();
      res.set({
        'Content-Type': 'text/javascript; charset=utf-8',
        'Cache-Control': 'no-cache',
        'Service-Worker-Allowed': '/',
      });
      res.send(body);
    });
  });
  router.get(WEB_MANIFEST_PATH, (_req, res) => {
    res.set({ 'Content-Type': 'application/manifest+json; charset=utf-8', 'Cache-Control': 'public, max-age=3600' });
    res.send(manifestBody);
  });
  // The same for everybody and no session needed: the worker fetches it when it installs.
  router.get(OFFLINE_PAGE_PATH, (_req, res) => {
    res.set('Cache-Control', 'public, max-age=3600');
    res.render('offline/offline.njk');
  });
  return router;
}
