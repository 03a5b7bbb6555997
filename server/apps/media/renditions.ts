import path from 'node:path';
import crypto from 'node:crypto';
import sharp from 'sharp';
import type { AppContext } from '../../context';
import type { Config } from '../../config';
import type { Logger } from '../../logger';
import { createLocalStorage, isSafeKey, type Storage } from '../../storage/storage';
import { isStorageFull } from '../../storage/storage-full';
import { assertServedRendition, renditionName, type RenditionParams } from './rendition-params';
import { withImageWork } from './image-work';

// Resized copies of stored images, made with sharp on first request and stored, so each is made
// once: in the bucket beside the originals when media live in S3 (Storage.renditions), otherwise
// under DATA_DIR/media-cache/{key}/{w}x{h}-{cmd}-q{quality}.{ext}. One folder per key, so
// deleting an image's renditions is one deleteUnder. Only IMAGE_SIZES are ever rendered, so a key
// has at most that many. Concurrent first requests for one rendition share one piece of work,
// and resizes wait for the process's image-work slots (image-work.ts) with uploads.

/** What /media/ answers: streamed from a store, or (a rendition that could not be kept) from memory. */
export interface MediaFile {
  contentType: string;
  source: { storage: Storage; key: string } | { body: Buffer; etag: string };
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

export function mediaCacheDir(config: Pick<Config, 'dataDir'>): string {
  return path.join(config.dataDir, 'media-cache');
}

/** Where renditions of ctx.storage's images are kept (see the top of this file). */
export function renditionStore(ctx: Pick<AppContext, 'storage' | 'config'>): Storage {
  return ctx.storage.renditions ?? createLocalStorage(mediaCacheDir(ctx.config));
}

export interface RenditionServiceDeps {
  storage: Storage;
  /** Where the renditions are kept (renditionStore). */
  renditions: Storage;
  logger: Logger;
}

export interface RenditionService {
  /** The stored file itself (read when it is served: a missing key answers 404 then). */
  original(key: string): MediaFile;
  /** The rendition, from the rendition store or made now; null when the original does not exist. */
  rendition(key: string, params: RenditionParams): Promise<MediaFile | null>;
  /** How many renditions were actually resized (tests check that concurrent asks share one). */
  readonly resizeCount: number;
}

export function contentTypeOf(key: string): string {
  return CONTENT_TYPES[extensionOf(key)] ?? 'application/octet-stream';
}

/** The rendition's key in the rendition store. */
export function renditionKey(key: string, params: RenditionParams): string {
  return `${key}/${renditionName(params)}.${EXTENSIONS[outputFormat(key)]}`;
}

/** The rendition's file when renditions are kept on local disk. */
export function renditionPath(cacheDir: string, key: string, params: RenditionParams): string {
  return path.join(cacheDir, renditionKey(key, params));
}

/** Removes every stored rendition of a key (after the image is deleted or replaced). */
export async function purgeRenditions(renditions: Storage, key: string): Promise<void> {
  if (!isSafeKey(key)) return;
  await renditions.deleteUnder(key);
}

/**
 * Keeps a rendition made for a request. The store only saves work: when it cannot be written
 * (the disk is full, the bucket unreachable) the rendition is still served, from memory, and made
 * again next time; only the log says so. True when it was kept.
 */
async function keepQuietly(renditions: Storage, key: string, body: Buffer, contentType: string, logger: Logger): Promise<boolean> {
  try {
    await renditions.put(key, body, contentType);
    return true;
  } catch (err) {
    const full = isStorageFull(err);
    logger[full ? 'warn' : 'error']({ err, key }, full ? 'media: rendition store full, rendition served without keeping it' : 'media: could not keep a rendition');
    return false;
  }
}

export function createRenditionService({ storage, renditions, logger }: RenditionServiceDeps): RenditionService {
  const inFlight = new Map<string, Promise<MediaFile | null>>();
  let resizeCount = 0;

  async function make(key: string, params: RenditionParams, stored: string): Promise<MediaFile | null> {
    const format = outputFormat(key);
    const contentType = CONTENT_TYPES[EXTENSIONS[format]];
    if (await renditions.exists(stored)) return { contentType, source: { storage: renditions, key: stored } };
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
    const kept = await keepQuietly(renditions, stored, body, contentType, logger);
    return { contentType, source: kept ? { storage: renditions, key: stored } : { body, etag: strongEtag(body) } };
  }

  return {
    original(key) {
      return { contentType: contentTypeOf(key), source: { storage, key } };
    },
    rendition(key, params) {
      assertServedRendition(params);
      const stored = renditionKey(key, params);
      let job = inFlight.get(stored);
      if (!job) {
        job = make(key, params, stored).finally(() => inFlight.delete(stored));
        inFlight.set(stored, job);
      }
      return job;
    },
    get resizeCount() {
      return resizeCount;
    },
  };
}

/**
 * Makes renditions ahead of the first request, from an original read once (the
 * media.warm-renditions job, warm-renditions-job.ts), so the first visitor does not wait for
 * the resize. Writes every size asked for, replacing any already there.
 */
export async function warmRenditions(renditions: Storage, key: string, source: Buffer, sizes: RenditionParams[]): Promise<void> {
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
  const contentType = CONTENT_TYPES[EXTENSIONS[format]];
  const written = await Promise.allSettled(made.map(([params, body]) => renditions.put(renditionKey(key, params), body, contentType)));
  const failed = written.find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
}
