import crypto from 'node:crypto';
import sharp from 'sharp';
import type { Db } from '../../db';
import type { Storage } from '../../storage/storage';
import { eventsWithOutsideImage, setImportedImageKey } from './queries';

// Imported events carry a picture on someone else's server (image_source_url). Pages never
// hot-link it: the seed gives such an event a placeholder, and this copies the original into our
// own media store, once, so it is served, resized and cached like an upload and keeps working when
// the outside host is slow or gone. What fails (timeout, 404, not an image, too large) leaves the
// placeholder and is counted, never a broken image.

export const IMPORT_TIMEOUT_MS = 10_000;
export const IMPORT_MAX_BYTES = 8 * 1024 * 1024;
const FORMATS: Record<string, string> = { jpeg: 'jpg', png: 'png', webp: 'webp', gif: 'gif' };

export interface ImportResult {
  copied: number;
  failed: Array<{ id: number; url: string; reason: string }>;
}

/** Downloads one picture and checks it is an image we serve; the bytes and its extension. */
export async function fetchImage(url: string, timeoutMs = IMPORT_TIMEOUT_MS): Promise<{ data: Buffer; ext: string; contentType: string }> {
  if (!/^https?:\/\//.test(url)) throw new Error('not an http(s) URL');
  const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'follow' });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  const declared = Number(res.headers.get('content-length') ?? 0);
  if (declared > IMPORT_MAX_BYTES) throw new Error('too large');
  const data = Buffer.from(await res.arrayBuffer());
  if (data.length > IMPORT_MAX_BYTES) throw new Error('too large');
  // What the bytes are, not what the server says they are.
  const meta = await sharp(data).metadata().catch(() => null);
  const ext = meta?.format ? FORMATS[meta.format] : undefined;
  if (!ext || !meta?.width || !meta.height) throw new Error('not an image');
  return { data, ext, contentType: `image/${meta.format}` };
}

/**
 * Copies the outside pictures of events that have none of their own yet (image_source_url set,
 * not copied yet), `concurrency` at a time. On success the event's image_key is the copy.
 */
export async function importEventImages(
  db: Db,
  storage: Storage,
  opts: { concurrency?: number; timeoutMs?: number; limit?: number } = {},
): Promise<ImportResult> {
  const rows = await eventsWithOutsideImage(db, opts.limit ?? 100_000);
  const result: ImportResult = { copied: 0, failed: [] };
  let next = 0;
  const worker = async () => {
    while (next < rows.length) {
      const row = rows[next++];
      try {
        const image = await fetchImage(row.image_source_url, opts.timeoutMs);
        const hash = crypto.createHash('sha256').update(image.data).digest('hex').slice(0, 16);
        const key = `events/imported/${row.id}-${hash}.${image.ext}`;
        await storage.put(key, image.data, image.contentType);
        try {
          await setImportedImageKey(db, row.id, key);
        } catch (err) {
          // The copy is only kept with its row: no object nothing points at.
          await storage.delete(key).catch(() => undefined);
          throw err;
        }
        result.copied++;
      } catch (err) {
        result.failed.push({ id: row.id, url: row.image_source_url, reason: err instanceof Error ? err.message : String(err) });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, opts.concurrency ?? 6) }, worker));
  return result;
}
