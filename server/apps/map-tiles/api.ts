import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Router, type Response } from 'express';
import type { AppContext } from '../../context';
import type { Config } from '../../config';
import { MemoryCache } from '../../cache/memory-cache';
import { createLocalStorage, type Storage } from '../../storage/storage';
import { PMTILES_CACHE_CONTROL, STATIC_MAP_CACHE_CONTROL, STATIC_MAP_MEMORY_TTL_MS } from '../../cache/lifetimes';
import { mapContextFile, staticMapPng, STATIC_MAP } from './static-map';
import { listingPosition } from './queries';

// The base map's files, both answered without a session:
// - GET /map-tiles/{name}.pmtiles: a .pmtiles extract from DATA_DIR/map-tiles/ (MAP_PMTILES_URL),
//   with HTTP Range requests (the pmtiles client reads a few KB at a time from one big file);
// - GET /static-maps/listings/{id}.png: the listing page's static map image (static-map.ts),
//   kept on disk in DATA_DIR/map-cache/ and the last ones in memory.

// Their Cache-Control headers and the memory copies' TTL are named with the other caches'
// lifetimes (cache/lifetimes.ts).

const PMTILES_FILE = /^([A-Za-z0-9][A-Za-z0-9._-]{0,99})\.pmtiles$/;
const PNG_FILE = /^([1-9]\d{0,8})\.png$/;

export function pmtilesDir(config: Config): string {
  return path.join(config.dataDir, 'map-tiles');
}

function staticMapCacheDir(config: Config): string {
  return path.join(config.dataDir, 'map-cache');
}

export function mapTilesRoutes(ctx: AppContext): Router {
  const router = Router();
  const memory = new MemoryCache<string, Buffer>({ name: 'static-map-images', ttlMs: STATIC_MAP_MEMORY_TTL_MS, maxEntries: 200, maxSize: 32 * 1024 * 1024, sizeOf: (b) => b.length });
  // The storage layer's local store: written aside and renamed, its .tmp removed when a write fails.
  const disk = createLocalStorage(staticMapCacheDir(ctx.config));

  router.get('/map-tiles/:file', (req, res, next) => {
    const m = PMTILES_FILE.exec(String(req.params.file));
    if (!m) return notFound(res);
    res.sendFile(`${m[1]}.pmtiles`, { root: pmtilesDir(ctx.config), acceptRanges: true, dotfiles: 'deny', headers: { 'Cache-Control': PMTILES_CACHE_CONTROL, 'Content-Type': 'application/octet-stream' } }, (err) => {
      if (!err || res.headersSent) return;
      if ((err as { status?: number }).status === 404 || (err as NodeJS.ErrnoException).code === 'ENOENT') return notFound(res);
      next(err);
    });
  });

  router.get('/static-maps/listings/:file', async (req, res) => {
    const m = PNG_FILE.exec(String(req.params.file));
    if (!m) return notFound(res);
    const row = await listingPosition(ctx.db, Number(m[1]));
    if (!row || row.latitude === null || row.longitude === null) return notFound(res);
    const [lat, lng] = [Number(row.latitude).toFixed(6), Number(row.longitude).toFixed(6)];
    const key = `${STATIC_MAP.zoom}_${lat}_${lng}_${contextVersion()}`;
    const etag = `"${crypto.createHash('sha1').update(key).digest('base64url').slice(0, 20)}"`;
    res.set({ 'Content-Type': 'image/png', ETag: etag, 'Cache-Control': STATIC_MAP_CACHE_CONTROL });
    if (req.fresh) return void res.status(304).end();
    const png = await memory.load(key, () => onDisk(disk, key, () => staticMapPng(Number(lat), Number(lng))));
    res.send(png);
  });

  return router;
}

/** The cached file for key, or a new one made and stored (whole or not at all: another process may read it). */
async function onDisk(disk: Storage, key: string, make: () => Promise<Buffer>): Promise<Buffer> {
  const name = `${key}.png`;
  const cached = await disk.get(name).catch(() => null);
  if (cached) return cached;
  const png = await make();
  await disk.put(name, png, 'image/png');
  return png;
}

let version: string | null = null;
/** A short hash of the context data, so a rebuilt data file makes new images. */
function contextVersion(): string {
  version ??= crypto.createHash('sha1').update(staticMapSource()).digest('hex').slice(0, 8);
  return version;
}

function staticMapSource(): Buffer {
  return fs.readFileSync(mapContextFile());
}

function notFound(res: Response): void {
  res.status(404).set('Cache-Control', 'public, max-age=60').type('text/plain').send('Not found');
}
