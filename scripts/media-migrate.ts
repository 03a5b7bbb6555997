// npm run media:migrate: copies a local media directory into the S3 bucket the config names
// (MEDIA_STORE=s3 and S3_*), before the site is switched over to it. Originals come from
// DATA_DIR/media (or --from DIR); kept renditions from DATA_DIR/media-cache go to the bucket's
// renditions/ so they need not be made again. Resumable: an object already in the bucket with
// the same size and ETag (the MD5 of its bytes, as S3 computes for a single-part upload) is
// skipped, so an interrupted run is simply started again. Prints progress as it goes. It needs
// no database: it can run while the old server still serves from disk; run it once more after
// the switch to catch what was uploaded in between.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../server/config';
import { createStorage } from '../server/storage/storage-factory';
import { isSafeKey, type Storage } from '../server/storage/storage';
import { mediaCacheDir } from '../server/apps/media/renditions';
import { runCommand } from './command';

export interface MigrateCounts {
  copied: number;
  skipped: number;
  /** Files whose names cannot be storage keys (never served), or that failed to copy. */
  failed: Array<{ key: string; reason: string }>;
  bytes: number;
}

/** Every file under dir as a storage key, leftover write-asides (.tmp) left out. */
export function keysIn(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((d) => d.isFile() && !d.name.endsWith('.tmp'))
    .map((d) => path.relative(dir, path.join(d.parentPath, d.name)).split(path.sep).join('/'))
    .sort();
}

const md5Etag = (data: Buffer) => `"${crypto.createHash('md5').update(data).digest('hex')}"`;

/** Copies every file under dir into `to`, `concurrency` at once; reports after each file. */
export async function migrateDirectory(
  dir: string,
  to: Storage,
  opts: { concurrency?: number; onProgress?: (done: number, total: number, counts: MigrateCounts) => void } = {},
): Promise<MigrateCounts> {
  const keys = keysIn(dir);
  const counts: MigrateCounts = { copied: 0, skipped: 0, failed: [], bytes: 0 };
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < keys.length) {
      const key = keys[next++];
      try {
        if (!isSafeKey(key)) throw new Error('not a storage key (never served)');
        const data = await fs.promises.readFile(path.join(dir, key));
        const there = await to.head(key);
        if (there && there.size === data.length && there.etag === md5Etag(data)) {
          counts.skipped++;
        } else {
          await to.put(key, data);
          counts.copied++;
          counts.bytes += data.length;
        }
      } catch (err) {
        counts.failed.push({ key, reason: err instanceof Error ? err.message : String(err) });
      }
      done++;
      opts.onProgress?.(done, keys.length, counts);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, opts.concurrency ?? 8) }, worker));
  return counts;
}

function fromArgument(argv: string[]): string | undefined {
  const i = argv.indexOf('--from');
  return i >= 0 ? argv[i + 1] : undefined;
}

runCommand(module, async () => {
  const config = loadConfig();
  if (config.media.store !== 's3') throw new Error('media:migrate copies into the bucket: set MEDIA_STORE=s3 and the S3_* settings (see docs/deployment.md).');
  const storage = createStorage(config);
  const from = path.resolve(fromArgument(process.argv.slice(2)) ?? config.mediaDir);
  const jobs: Array<[string, string, Storage]> = [['originals', from, storage]];
  if (storage.renditions && fs.existsSync(mediaCacheDir(config))) jobs.push(['renditions', mediaCacheDir(config), storage.renditions]);
  let failed = 0;
  for (const [what, dir, to] of jobs) {
    const t0 = Date.now();
    let last = 0;
    console.log(`${what}: ${dir} -> s3://${config.media.bucket}/${what === 'renditions' ? 'renditions/' : ''}`);
    const counts = await migrateDirectory(dir, to, {
      onProgress(done, total, c) {
        if (done < total && Date.now() - last < 2000) return;
        last = Date.now();
        console.log(`  ${done}/${total} files: ${c.copied} copied (${(c.bytes / 1e6).toFixed(1)} MB), ${c.skipped} already there, ${c.failed.length} failed`);
      },
    });
    console.log(`  done in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    for (const f of counts.failed.slice(0, 20)) console.log(`  not copied: ${f.key}: ${f.reason}`);
    failed += counts.failed.length;
  }
  // Run again to retry what failed: what was copied is skipped.
  if (failed) process.exitCode = 1;
});
