import { ConfigError, loadConfig } from '../config';
import { createStorage } from './storage-factory';

// MEDIA_STORE and the S3_* settings: local disk unless asked, and clear errors naming each
// setting that is missing or malformed.

const s3 = { NODE_ENV: 'test', MEDIA_STORE: 's3', S3_BUCKET: 'guide-media', S3_REGION: 'ca-central-1', S3_ACCESS_KEY_ID: 'AKIAEXAMPLE', S3_SECRET_ACCESS_KEY: 'secret' } as const;
const errorOf = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('the config was accepted');
};

test('local disk is the default, and S3 settings alone do not switch it', () => {
  const config = loadConfig({ NODE_ENV: 'test', S3_BUCKET: 'guide-media' });
  expect(config.media).toEqual({ store: 'local' });
  expect(createStorage(config).renditions).toBeUndefined();
});

test('MEDIA_STORE=s3 with its settings builds a bucket store; path-style only with an endpoint', () => {
  expect(loadConfig(s3).media).toEqual({ store: 's3', endpoint: undefined, bucket: 'guide-media', region: 'ca-central-1', credentials: { accessKeyId: 'AKIAEXAMPLE', secretAccessKey: 'secret' }, forcePathStyle: false });
  const minio = loadConfig({ ...s3, S3_ENDPOINT: 'http://127.0.0.1:9000', S3_REGION: 'us-east-1' });
  expect(minio.media).toMatchObject({ endpoint: 'http://127.0.0.1:9000', forcePathStyle: true });
  expect(createStorage(minio).renditions).toBeDefined();
  // Neither key: the AWS default chain (an instance role).
  expect(loadConfig({ ...s3, S3_ACCESS_KEY_ID: '', S3_SECRET_ACCESS_KEY: '' }).media).toMatchObject({ credentials: undefined });
});

test.each([
  [{ S3_BUCKET: '' }, /S3_BUCKET: required with MEDIA_STORE=s3/],
  [{ S3_REGION: '' }, /S3_REGION: required with MEDIA_STORE=s3/],
  [{ S3_SECRET_ACCESS_KEY: '' }, /S3_SECRET_ACCESS_KEY: set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither/],
  [{ S3_ACCESS_KEY_ID: '' }, /S3_ACCESS_KEY_ID: set both/],
  [{ S3_BUCKET: 'Guide_Media' }, /S3_BUCKET: must be an S3 bucket name/],
  [{ S3_ENDPOINT: 'minio:9000' }, /S3_ENDPOINT: must be the http\(s\) URL of an S3-compatible server/],
  [{ S3_REGION: 'Canada Central' }, /S3_REGION: must be a region name/],
  [{ MEDIA_STORE: 'gcs' }, /MEDIA_STORE:/],
])('refuses %j with a message naming the setting', (change, message) => {
  expect(errorOf({ ...s3, ...change })).toMatch(message);
});
