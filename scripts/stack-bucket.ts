// The media bucket of `npm run stack -- --s3`: s3rver (npm) on a free port, storing under the
// stack's run directory, or a real bucket named by STACK_S3_BUCKET and the other STACK_S3_*
// settings. The demo city's pictures are copied in by media:migrate's code (scripts/media-migrate.ts),
// and the node processes get the MEDIA_STORE=s3 settings that reach it.
import fs from 'node:fs';
import type net from 'node:net';
import path from 'node:path';
import { CreateBucketCommand, HeadBucketCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { createS3Client, createS3Storage, type S3StoreSettings } from '../server/storage/s3-store';
import { mediaCacheDir } from '../server/apps/media/renditions';
import { migrateDirectory, type MigrateCounts } from './media-migrate';

export const STACK_BUCKET = 'guide-stack-media';
// s3rver takes any key pair; the SDK signs with it as with a real one.
const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export interface StackBucket {
  settings: S3StoreSettings;
  /** MEDIA_STORE=s3 and the S3_* settings for the node processes. */
  env: Record<string, string>;
  /** s3rver's data directory, or null for a real bucket. */
  s3rverDir: string | null;
  /** Every key in the bucket under prefix, sorted. */
  keys(prefix?: string): Promise<string[]>;
  /** Copies dataDir's media (originals, and kept renditions) into the bucket; throws when any file failed. */
  copyMedia(dataDir: string): Promise<{ originals: MigrateCounts; renditions: MigrateCounts | null }>;
  /** Stops s3rver (its data directory goes with the run directory); nothing for a real bucket. */
  stop(): Promise<void>;
}

/** A real bucket's settings from STACK_S3_*, or null when STACK_S3_BUCKET is not set. */
function realBucketSettings(env: NodeJS.ProcessEnv): S3StoreSettings | null {
  if (!env.STACK_S3_BUCKET) return null;
  const keyId = env.STACK_S3_ACCESS_KEY_ID;
  const secret = env.STACK_S3_SECRET_ACCESS_KEY;
  if (Boolean(keyId) !== Boolean(secret)) throw new Error('STACK_S3_ACCESS_KEY_ID and STACK_S3_SECRET_ACCESS_KEY: set both, or neither (the AWS default credentials)');
  return {
    endpoint: env.STACK_S3_ENDPOINT || undefined,
    bucket: env.STACK_S3_BUCKET,
    region: env.STACK_S3_REGION || 'us-east-1',
    credentials: keyId && secret ? { accessKeyId: keyId, secretAccessKey: secret } : undefined,
    forcePathStyle: env.STACK_S3_FORCE_PATH_STYLE ? env.STACK_S3_FORCE_PATH_STYLE === 'true' : Boolean(env.STACK_S3_ENDPOINT),
  };
}

/** Starts s3rver under runDir (or takes the STACK_S3_* bucket) and makes sure the bucket exists. */
export async function startStackBucket(runDir: string, env: NodeJS.ProcessEnv = process.env): Promise<StackBucket> {
  let settings = realBucketSettings(env);
  let s3rverDir: string | null = null;
  let stopServer = async () => {};
  if (!settings) {
    // Loaded here: only --s3 without a real bucket needs the devDependency.
    const { default: S3rver } = await import('s3rver');
    s3rverDir = path.join(runDir, 's3');
    fs.mkdirSync(s3rverDir, { recursive: true });
    const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: s3rverDir });
    const { port } = (await server.run()) as unknown as net.AddressInfo;
    stopServer = () => server.close();
    settings = { endpoint: `http://127.0.0.1:${port}`, bucket: STACK_BUCKET, region: 'us-east-1', credentials: S3RVER_CREDENTIALS, forcePathStyle: true };
  }
  const s = settings;
  const client = createS3Client(s);
  const stop = async () => {
    client.destroy();
    await stopServer();
  };
  try {
    const exists = await client.send(new HeadBucketCommand({ Bucket: s.bucket })).then(
      () => true,
      (err: { $metadata?: { httpStatusCode?: number } }) => {
        if (err.$metadata?.httpStatusCode === 404) return false;
        throw err;
      },
    );
    if (!exists) await client.send(new CreateBucketCommand({ Bucket: s.bucket }));
  } catch (err) {
    await stop();
    throw new Error(`the media bucket ${s.bucket} at ${s.endpoint ?? `AWS ${s.region}`}: ${(err as Error).message}`);
  }

  const storage = createS3Storage(s, client);
  const copy = async (dir: string, to: typeof storage): Promise<MigrateCounts> => {
    const counts = await migrateDirectory(dir, to);
    if (counts.failed.length) throw new Error(`copying ${dir} into the bucket: ${counts.failed.length} files failed, the first ${counts.failed[0].key}: ${counts.failed[0].reason}`);
    return counts;
  };
  return {
    settings: s,
    s3rverDir,
    env: {
      MEDIA_STORE: 's3',
      S3_ENDPOINT: s.endpoint ?? '',
      S3_BUCKET: s.bucket,
      S3_REGION: s.region,
      S3_ACCESS_KEY_ID: s.credentials?.accessKeyId ?? '',
      S3_SECRET_ACCESS_KEY: s.credentials?.secretAccessKey ?? '',
      S3_FORCE_PATH_STYLE: String(s.forcePathStyle),
    },
    async keys(prefix) {
      const keys: string[] = [];
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: s.bucket, Prefix: prefix, ContinuationToken }));
        keys.push(...(page.Contents ?? []).map((o) => o.Key!));
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
      return keys.sort();
    },
    async copyMedia(dataDir) {
      const originals = await copy(path.join(dataDir, 'media'), storage);
      const cache = mediaCacheDir({ dataDir });
      const renditions = storage.renditions && fs.existsSync(cache) ? await copy(cache, storage.renditions) : null;
      return { originals, renditions };
    },
    stop,
  };
}
