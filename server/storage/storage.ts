import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import type { Readable } from 'node:stream';
import { isStorageFull, StorageFullError } from './storage-full';

/** A stored object's size and validator: enough to answer a conditional or ranged request. */
export interface StoredObjectInfo {
  size: number;
  /** A strong ETag, quoted: it changes whenever the object under the key is replaced. */
  etag: string;
}

/** Bytes first to last, both included (as in a Range header). */
export interface ByteRange {
  start: number;
  end: number;
}

export interface StoredObjectStream extends StoredObjectInfo {
  body: Readable;
  /** The range this body holds; null for the whole object. */
  range: ByteRange | null;
}

/**
 * Where uploaded and generated files live: the local directory (the default) or an S3 bucket
 * (s3-store.ts); storage-factory.ts picks one from the config. Both pass one contract suite
 * (test/storage/storage-contract.test.ts).
 */
export interface Storage {
  /** Stores the whole of data under key, or nothing; StorageFullError when there is no room. */
  put(key: string, data: Buffer, contentType?: string): Promise<void>;
  get(key: string): Promise<Buffer | null>;
  head(key: string): Promise<StoredObjectInfo | null>;
  /** The object (or one range of it) as a stream; null when there is none. */
  read(key: string, range?: ByteRange): Promise<StoredObjectStream | null>;
  exists(key: string): Promise<boolean>;
  delete(key: string): Promise<void>;
  /** Deletes every object whose key starts with prefix + '/' (an image's renditions). */
  deleteUnder(prefix: string): Promise<void>;
  /**
   * Where this store keeps the renditions of its images, when it keeps them itself (a bucket
   * keeps them beside the originals). Unset, renditions go to DATA_DIR/media-cache.
   */
  renditions?: Storage;
}

/** Keys are relative paths of safe characters: no '..', no leading slash. */
export function isSafeKey(key: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._/-]{0,300}$/.test(key) && !key.split('/').some((p) => p === '..' || p === '.' || p === '');
}

export function newKey(prefix: string, ext: string): string {
  const d = new Date();
  const stamp = `${d.getUTCFullYear()}/${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
  return `${prefix}/${stamp}/${crypto.randomBytes(12).toString('hex')}.${ext}`;
}

// Files are only ever replaced by a rename (put below), so size, inode and modification time
// together name one complete write: a strong validator without reading the file.
function localEtag(stat: fs.Stats): string {
  return `"${stat.size.toString(16)}-${stat.ino.toString(16)}-${Math.round(stat.mtimeMs).toString(16)}"`;
}

const isMissing = (err: unknown) => ['ENOENT', 'ENOTDIR'].includes((err as NodeJS.ErrnoException).code ?? '');

export function createLocalStorage(rootDir: string): Storage {
  const resolve = (key: string) => {
    if (!isSafeKey(key)) throw new Error(`Unsafe storage key: ${key}`);
    return path.join(rootDir, key);
  };
  const head = async (key: string): Promise<StoredObjectInfo | null> => {
    try {
      const stat = await fs.promises.stat(resolve(key));
      return stat.isFile() ? { size: stat.size, etag: localEtag(stat) } : null;
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  };
  return {
    async put(key, data) {
      const file = resolve(key);
      // Written aside and renamed, so a reader never sees half a file; a failed write (a full
      // disk stops it half-way) removes its .tmp and leaves nothing under the key.
      const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
      try {
        await fs.promises.mkdir(path.dirname(file), { recursive: true });
        await fs.promises.writeFile(tmp, data);
        await fs.promises.rename(tmp, file);
      } catch (err) {
        await fs.promises.rm(tmp, { force: true }).catch(() => undefined);
        throw isStorageFull(err) ? new StorageFullError(key, { cause: err }) : err;
      }
    },
    async get(key) {
      try {
        return await fs.promises.readFile(resolve(key));
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
    },
    head,
    async read(key, range) {
      let handle: fs.promises.FileHandle;
      try {
        handle = await fs.promises.open(resolve(key), 'r');
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
      // Size and ETag from the open file, so they describe the bytes streamed even if the key
      // is replaced meanwhile (a rename leaves this handle on the old file).
      const stat = await handle.stat();
      const body = handle.createReadStream({ start: range?.start, end: range?.end, highWaterMark: 64 * 1024 });
      return { body, size: stat.size, etag: localEtag(stat), range: range ?? null };
    },
    async exists(key) {
      return (await head(key)) !== null;
    },
    async delete(key) {
      await fs.promises.rm(resolve(key), { force: true });
    },
    async deleteUnder(prefix) {
      await fs.promises.rm(resolve(prefix), { recursive: true, force: true });
    },
  };
}
