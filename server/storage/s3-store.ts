import crypto from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { isSafeKey, type Storage, type StoredObjectInfo } from './storage';
import { StorageFullError } from './storage-full';

// Originals and renditions in an S3 bucket (AWS, or any S3-compatible server: MinIO, Ceph,
// R2, s3rver in the tests), through the official SDK. A PutObject is atomic: the object is
// there whole once it answers, or not at all, so no write here needs the local store's
// write-aside-and-rename. Renditions live in the same bucket under RENDITIONS_PREFIX.

export interface S3StoreSettings {
  /** Unset: AWS's own endpoint for the region. */
  endpoint?: string;
  bucket: string;
  region: string;
  /** Both or neither; neither: the SDK's default chain (AWS_* variables, an instance role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** bucket.host/key (AWS's default) or host/bucket/key (most self-hosted servers). */
  forcePathStyle: boolean;
}

export const RENDITIONS_PREFIX = 'renditions/';

export function createS3Client(settings: S3StoreSettings): S3Client {
  return new S3Client({
    endpoint: settings.endpoint,
    region: settings.region,
    credentials: settings.credentials,
    forcePathStyle: settings.forcePathStyle,
    // Checksums only where S3 demands them: S3-compatible servers that predate the SDK's
    // default CRC32 headers refuse them, and the SDK still signs every request.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/** The store's answer had no such key (GetObject says NoSuchKey, HeadObject a bare 404). */
function isNotFound(err: unknown): boolean {
  return err instanceof S3ServiceException && (err.$metadata.httpStatusCode === 404 || err.name === 'NoSuchKey' || err.name === 'NotFound');
}

// What a bucket answers when it has no room: MinIO's disk-full code, or 507 from any server.
function isBucketFull(err: unknown): boolean {
  return err instanceof S3ServiceException && (err.name === 'XMinioStorageFull' || err.$metadata.httpStatusCode === 507);
}

/** "bytes 0-99/1234" -> 1234 */
function totalOfContentRange(header: string | undefined): number | null {
  const m = header ? /\/(\d+)$/.exec(header) : null;
  return m ? Number(m[1]) : null;
}

export function createS3Storage(settings: S3StoreSettings, client: S3Client = createS3Client(settings), prefix = ''): Storage {
  const Bucket = settings.bucket;
  const objectKey = (key: string) => {
    if (!isSafeKey(key)) throw new Error(`Unsafe storage key: ${key}`);
    return prefix + key;
  };
  const head = async (key: string): Promise<StoredObjectInfo | null> => {
    try {
      const res = await client.send(new HeadObjectCommand({ Bucket, Key: objectKey(key) }));
      return { size: res.ContentLength ?? 0, etag: res.ETag ?? '""' };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  };
  const store: Storage = {
    async put(key, data, contentType) {
      try {
        // Content-MD5: the store refuses (BadDigest) a body that did not arrive as sent.
        const ContentMD5 = crypto.createHash('md5').update(data).digest('base64');
        await client.send(new PutObjectCommand({ Bucket, Key: objectKey(key), Body: data, ContentLength: data.length, ContentMD5, ContentType: contentType }));
      } catch (err) {
        throw isBucketFull(err) ? new StorageFullError(key, { cause: err }) : err;
      }
    },
    async get(key) {
      try {
        const res = await client.send(new GetObjectCommand({ Bucket, Key: objectKey(key) }));
        return res.Body ? Buffer.from(await res.Body.transformToByteArray()) : Buffer.alloc(0);
      } catch (err) {
        if (isNotFound(err)) return null;
        throw err;
      }
    },
    head,
    async read(key, range) {
      try {
        const res = await client.send(new GetObjectCommand({ Bucket, Key: objectKey(key), Range: range ? `bytes=${range.start}-${range.end}` : undefined }));
        const size = range ? (totalOfContentRange(res.ContentRange) ?? 0) : (res.ContentLength ?? 0);
        return { body: res.Body as Readable, size, etag: res.ETag ?? '""', range: range ?? null };
      } catch (err) {
        if (isNotFound(err)) return null;
        throw err;
      }
    },
    async exists(key) {
      return (await head(key)) !== null;
    },
    async delete(key) {
      // Deleting a key that is not there succeeds, as rm --force does.
      await client.send(new DeleteObjectCommand({ Bucket, Key: objectKey(key) }));
    },
    async deleteUnder(keyPrefix) {
      const Prefix = `${objectKey(keyPrefix)}/`;
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix, ContinuationToken }));
        // One by one: an image has a handful of renditions, and DeleteObjects needs a
        // Content-MD5 that not every S3-compatible server checks the same way.
        await Promise.all((page.Contents ?? []).map((o) => client.send(new DeleteObjectCommand({ Bucket, Key: o.Key }))));
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },
  };
  if (!prefix) store.renditions = createS3Storage(settings, client, RENDITIONS_PREFIX);
  return store;
}
