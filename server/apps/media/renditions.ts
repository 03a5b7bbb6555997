import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import sharp from 'sharp';
import type { Logger } from '../../logger';
import type { Storage } from '../../storage/storage';
import { isSafeKey } from '../../storage/storage';
import { isStorageFull } from '../../storage/storage-full';
import { assertServedRendition, renditionName, type RenditionParams } from './rendition-params';
import { withImageWork } from './image-work';

// Resized copies of stored images, made with sharp on first request and kept on disk under
// DATA_DIR/media-cache/{key}/{w}x{h}-{cmd}-q{quality}.{ext}. One directory per key, so
// deleting an image's renditions is one rm. Only IMAGE_SIZES are ever rendered, so a key has at
// most that many files. Concurrent first requests for one rendition share one piece of work,
// and resizes wait for the process's image-work slots (image-work.ts) with uploads.

export interface MediaFile {
  body: Buffer;
  contentType: string;
  etag: string;
}

type OutputFormat = 'jpeg' | 'png' | 'webp';

const CONTENT_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
};

/** No image wider and taller than this (48 megapixels) is decoded: a bomb stays a bomb on disk. */
export const MAX_INPUT_PIXELS = 8000 * 6000;

export function extensionOf(key: string): string {
  const m = /\.([A-Za-z0-9]{1,5})$/.exec(key);
  return m ? m[1].toLowerCase() : '';
}

/** Only image files are served; any other key in storage is not this endpoint's business. */
export function isImageKey(key: string): boolean {
  return isSafeKey(key) && extensionOf(key) in CONTENT_TYPES;
}

// A rendition keeps its original's kind: transparency stays PNG, photos stay JPEG.
function outputFormat(key: string): OutputFormat {
  const ext = extensionOf(key);
  if (ext === 'png' || ext === 'gif') return 'png';
  if (ext === 'webp') return 'webp';
  return 'jpeg';
}

const EXTENSIONS: Record<OutputFormat, string> = { jpeg: 'jpg', png: 'png', webp: 'webp' };

export function strongEtag(body: Buffer): string {
  return `"${crypto.createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
}

export async function resize(original: Buffer, params: RenditionParams, format: OutputFormat, raw?: sharp.CreateRaw): Promise<Buffer> {
  let pipeline = (raw ? sharp(original, { raw }) : sharp(original, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })).rotate();
  if (params.w || params.h) {
    pipeline = pipeline.resize({
      width: params.w ?? undefined,
      height: params.h ?? undefined,
      // crop fills the box exactly (cards need their aspect); fit keeps the whole picture.
      fit: params.cmd === 'crop' && params.w && params.h ? 'cover' : 'inside',
      position: 'centre',
      withoutEnlargement: params.cmd === 'fit',
    });
  }
  if (format === 'png') return pipeline.png({ compressionLevel: 8 }).toBuffer();
  if (format === 'webp') return pipeline.webp({ quality: params.quality }).toBuffer();
  return pipeline.jpeg({ quality: params.quality, progressive: true }).toBuffer();
}

export interface RenditionServiceDeps {
  storage: Storage;
  cacheDir: string;
  logger: Logger;
}

export interface RenditionService {
  /** The stored file itself; null when there is none. */
  original(key: string): Promise<MediaFile | null>;
  /** The rendition, from the disk cache or made now; null when the original does not exist. */
  rendition(key: string, params: RenditionParams): Promise<MediaFile | null>;
  /** How many renditions were actually resized (tests check that concurrent asks share one). */
  readonly resizeCount: number;
}

export function renditionPath(cacheDir: string, key: string, params: RenditionParams): string {
  return path.join(cacheDir, key, `${renditionName(params)}.${EXTENSIONS[outputFormat(key)]}`);
}

/** Removes every cached rendition of a key (after the image is deleted or replaced). */
export async function purgeRenditions(cacheDir: string, key: string): Promise<void> {
  if (!isSafeKey(key)) return;
  await fs.promises.rm(path.join(cacheDir, key), { recursive: true, force: true });
}

async function readIfExists(file: string): Promise<Buffer | null> {
  try {
    return await fs.promises.readFile(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return null;
    throw err;
  }
}

async function writeAtomically(file: string, body: Buffer): Promise<void> {
  await fs.promises.mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
  try {
    await fs.promises.writeFile(tmp, body);
    await fs.promises.rename(tmp, file);
  } catch (err) {
    // A full disk stops the write half-way: no half-written .tmp stays behind.
    await fs.promises.rm(tmp, { force: true }).catch(() => undefined);
    throw err;
  }
}

/**
 * Keeps a rendition made for a request in the disk cache. The cache only saves work: when it
 * cannot be written (the disk is full) the rendition is still served, from memory, and made
 * again next time; only the log says so.
 */
async function cacheQuietly(file: string, body: Buffer, logger: Logger): Promise<void> {
  try {
    await writeAtomically(file, body);
  } catch (err) {
    const full = isStorageFull(err);
    logger[full ? 'warn' : 'error']({ err, file }, full ? 'media: cache disk full, rendition served without caching it' : 'media: could not cache a rendition');
  }
}

export function createRenditionService({ storage, cacheDir, logger }: RenditionServiceDeps): RenditionService {
  const inFlight = new Map<string, Promise<MediaFile | null>>();
  let resizeCount = 0;

  async function make(key: string, params: RenditionParams, file: string): Promise<MediaFile | null> {
    const format = outputFormat(key);
    const contentType = CONTENT_TYPES[EXTENSIONS[format]];
    const cached = await readIfExists(file);
    if (cached) return { body: cached, contentType, etag: strongEtag(cached) };
    const original = await storage.get(key);
    if (!original) return null;
    let body: Buffer;
    try {
      body = await withImageWork(() => {
        resizeCount += 1;
        return resize(original, params, format);
      });
    } catch (err) {
      // CASE: the stored file is not a decodable image (or too large to decode); nothing to show.
      logger.warn({ err, key }, 'media: could not resize stored image');
      return null;
    }
    await cacheQuietly(file, body, logger);
    return { body, contentType, etag: strongEtag(body) };
  }

  return {
    async original(key) {
      const body = await storage.get(key);
      if (!body) return null;
      return { body, contentType: CONTENT_TYPES[extensionOf(key)] ?? 'application/octet-stream', etag: strongEtag(body) };
    },
    rendition(key, params) {
      assertServedRendition(params);
      const file = renditionPath(cacheDir, key, params);
      let job = inFlight.get(file);
      if (!job) {
        job = make(key, params, file).finally(() => inFlight.delete(file));
        inFlight.set(file, job);
      }
      return job;
    },
    get resizeCount() {
      return resizeCount;
    },
  };
}

/**
 * Makes renditions ahead of the first request, from an image already in memory (a fresh
 * upload), so the first visitor does not wait for the resize.
 */
export async function warmRenditions(cacheDir: string, key: string, source: Buffer, sizes: RenditionParams[]): Promise<void> {
  sizes.forEach(assertServedRendition);
  const format = outputFormat(key);
  // Decode once, at twice the largest size asked for (a JPEG shrinks on load, so this is
  // cheap), and make every rendition from those pixels rather than decoding the source again.
  const largest = Math.max(...sizes.map((p) => Math.max(p.w ?? 0, p.h ?? 0)));
  // One image-work slot for the whole job, and the sizes one after another inside it.
  const made = await withImageWork(async () => {
    const { data, info } = await sharp(source, { limitInputPixels: MAX_INPUT_PIXELS })
      .rotate()
      .resize({ width: largest * 2, height: largest * 2, fit: 'inside', withoutEnlargement: true })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const raw = { width: info.width, height: info.height, channels: info.channels };
    const out: Array<[RenditionParams, Buffer]> = [];
    for (const params of sizes) out.push([params, await resize(data, params, format, raw)]);
    return out;
  });
  // Every write finishes (or cleans up after itself) before a failure is reported.
  const written = await Promise.allSettled(made.map(([params, body]) => writeAtomically(renditionPath(cacheDir, key, params), body)));
  const failed = written.find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
}
