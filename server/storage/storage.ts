import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { isStorageFull, StorageFullError } from './storage-full';

/**
 * Where uploaded and generated files live. The local directory is the default; an object
 * store implements the same four calls.
 */
export interface Storage {
  /** Stores the whole of data under key, or nothing; StorageFullError when there is no room. */
  put(key: string, data: Buffer, contentType?: string): Promise<void>;
  get(key: string): Promise<Buffer | null>;
  exists(key: string): Promise<boolean>;
  delete(key: string): Promise<void>;
  /** A local path for streaming, when the backend has one. */
  localPath?(key: string): string;
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

export function createLocalStorage(rootDir: string): Storage {
  const resolve = (key: string) => {
    if (!isSafeKey(key)) throw new Error(`Unsafe storage key: ${key}`);
    return path.join(rootDir, key);
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
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },
    async exists(key) {
      try {
        await fs.promises.access(resolve(key));
        return true;
      } catch {
        return false;
      }
    },
    async delete(key) {
      await fs.promises.rm(resolve(key), { force: true });
    },
    localPath: resolve,
  };
}
