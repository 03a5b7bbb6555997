import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { CreateBucketCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { createS3Client } from '../storage/s3-store';
import type { Env } from '../config';

// An S3-compatible server for tests: s3rver (npm, a devDependency) on a free port, storing in a
// temporary directory, with a bucket made. It answers what the storage contract uses: PutObject,
// GetObject with Range, HeadObject, ETag (the MD5 of the body, as S3's own), DeleteObject and
// ListObjectsV2. The app reaches it through a small TCP proxy that can cut uploads half-way, the
// way a dropped connection does, to test that nothing half-written is seen and no row is left.
//
// What the proxy stands in for: S3 (and MinIO, Ceph, R2) store a PutObject whole or not at all,
// but s3rver writes the body straight into place, so a request cut half-way leaves a short
// object there. A cut upload is therefore withheld from s3rver (the client sees its connection
// drop after sending headers and 100 bytes of body; the store never sees the request), which is
// what a real S3 shows. The app's side (the put rejects, no row, the orphan deleted) is real.

export const TEST_BUCKET = 'guide-media-test';
const CREDENTIALS = { S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' };

export interface S3TestServer {
  /** The MEDIA_STORE=s3 settings that reach this server (through the proxy). */
  env: Env;
  client: S3Client;
  /** Every key in the bucket, sorted. */
  keys(prefix?: string): Promise<string[]>;
  /** While on, every PUT's connection is cut after its headers and 100 bytes of body. */
  cutUploads(on: boolean): void;
  close(): Promise<void>;
}

/** Forwards to port; while `cutting()`, a PUT is swallowed and its connection cut part-way. */
function cuttingProxy(port: number, cutting: () => boolean): { server: net.Server; sockets: Set<net.Socket> } {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    const upstream = net.connect(port, '127.0.0.1');
    let budget: number | null = null;
    const drop = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('data', (chunk: Buffer) => {
      if (budget === null && cutting() && chunk.subarray(0, 4).toString() === 'PUT ') {
        const headersEnd = chunk.indexOf('\r\n\r\n');
        budget = (headersEnd < 0 ? chunk.length : headersEnd + 4) + 100;
      }
      if (budget === null) return void upstream.write(chunk);
      budget -= chunk.length;
      if (budget <= 0) drop();
    });
    upstream.pipe(client);
    client.on('error', drop);
    upstream.on('error', drop);
    client.on('close', () => upstream.destroy());
  });
  return { server, sockets };
}

export async function startS3TestServer(): Promise<S3TestServer> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 's3rver-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory });
  const { port } = (await server.run()) as unknown as net.AddressInfo;
  let cut = false;
  const proxy = cuttingProxy(port, () => cut);
  await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(proxy.server.address() as net.AddressInfo).port}`;
  const env: Env = { MEDIA_STORE: 's3', S3_ENDPOINT: endpoint, S3_BUCKET: TEST_BUCKET, S3_REGION: 'us-east-1', ...CREDENTIALS };
  const client = createS3Client({
    endpoint: `http://127.0.0.1:${port}`,
    bucket: TEST_BUCKET,
    region: 'us-east-1',
    credentials: { accessKeyId: CREDENTIALS.S3_ACCESS_KEY_ID, secretAccessKey: CREDENTIALS.S3_SECRET_ACCESS_KEY },
    forcePathStyle: true,
  });
  await client.send(new CreateBucketCommand({ Bucket: TEST_BUCKET }));
  return {
    env,
    client,
    async keys(prefix) {
      const keys: string[] = [];
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: TEST_BUCKET, Prefix: prefix, ContinuationToken }));
        keys.push(...(page.Contents ?? []).map((o) => o.Key!));
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
      return keys.sort();
    },
    cutUploads(on) {
      cut = on;
    },
    async close() {
      client.destroy();
      // The app's client keeps its connections alive: they are ended here, not waited for.
      for (const socket of proxy.sockets) socket.destroy();
      await new Promise<void>((resolve) => proxy.server.close(() => resolve()));
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
