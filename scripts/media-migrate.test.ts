import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../server/config';
import { createStorage } from '../server/storage/storage-factory';
import { startS3TestServer, type S3TestServer } from '../server/testing/s3-test-server';
import { migrateDirectory } from './media-migrate';

// npm run media:migrate against a real S3-compatible server (s3rver): copies a media directory
// into the bucket, and a second run copies only what is new or changed.
jest.setTimeout(60_000);

let s3: S3TestServer;
let dir: string;
beforeAll(async () => {
  s3 = await startS3TestServer();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'media-migrate-'));
});
afterAll(async () => {
  await s3?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const write = (key: string, data: string) => {
  fs.mkdirSync(path.dirname(path.join(dir, key)), { recursive: true });
  fs.writeFileSync(path.join(dir, key), data);
};

test('copies every file once, skips what is already there with the same size and ETag, and recopies what changed', async () => {
  const storage = createStorage(loadConfig({ NODE_ENV: 'test', DATA_DIR: dir, ...s3.env }));
  write('photos/2026/11/a.jpg', 'first photo');
  write('avatars/2026/11/b.jpg', 'an avatar');
  write('seed/c.png', 'seeded');
  write('photos/2026/11/a.jpg.123.abcd.tmp', 'a write-aside left by a crash');
  write('photos/bad name.jpg', 'a name no key may have');

  const progress: number[] = [];
  const first = await migrateDirectory(dir, storage, { concurrency: 2, onProgress: (done) => progress.push(done) });
  expect(first).toMatchObject({ copied: 3, skipped: 0, bytes: 'first photo'.length + 'an avatar'.length + 'seeded'.length });
  expect(first.failed).toEqual([{ key: 'photos/bad name.jpg', reason: expect.stringMatching(/not a storage key/) }]);
  expect(progress.sort((a, b) => a - b)).toEqual([1, 2, 3, 4]);
  expect(await s3.keys()).toEqual(['avatars/2026/11/b.jpg', 'photos/2026/11/a.jpg', 'seed/c.png']);
  expect((await storage.get('photos/2026/11/a.jpg'))!.toString()).toBe('first photo');

  // Resumed (or run again after the switch): only the changed file is sent.
  write('seed/c.png', 'seeded again');
  const second = await migrateDirectory(dir, storage);
  expect(second).toMatchObject({ copied: 1, skipped: 2 });
  expect((await storage.get('seed/c.png'))!.toString()).toBe('seeded again');
  // Same size, other bytes: the ETag tells them apart.
  write('avatars/2026/11/b.jpg', 'an AVATAR');
  expect(await migrateDirectory(dir, storage)).toMatchObject({ copied: 1, skipped: 2 });
  expect((await storage.get('avatars/2026/11/b.jpg'))!.toString()).toBe('an AVATAR');
});
