import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RequestListener } from 'node:http';

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The bytes as sent: still compressed when the answer has a Content-Encoding. */
  body: Buffer;
}

/**
 * GET path from app on a port of its own, with these headers only (supertest adds
 * Accept-Encoding and decompresses what it receives): a test sees the bytes on the wire.
 */
export async function rawGet(app: RequestListener, path: string, headers: Record<string, string>): Promise<RawAnswer> {
  const server = http.createServer(app).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    return await new Promise<RawAnswer>((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        })
        .on('error', reject);
    });
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}
