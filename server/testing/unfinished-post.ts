import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import type { Server } from 'node:http';
import { CookieAccessInfo } from 'cookiejar';
import type { Agent } from './test-app';

// For tests of what a server decides before it reads a body: a raw socket declares a large
// body, sends only its start, and waits. A server that reads before deciding never answers
// (the test then times out); one that decides first answers and closes the connection.

export interface UnfinishedAnswer {
  status: number;
  head: string;
  body: string;
  /** Body bytes the client had written when the answer arrived. */
  sentBytes: number;
}

export interface UnfinishedPost {
  path: string;
  contentType: string;
  declaredBytes: number;
  headers: Record<string, string>;
  firstBytes: Buffer | string;
}

export function postUnfinished(port: number, post: UnfinishedPost): Promise<UnfinishedAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const first = Buffer.from(post.firstBytes);
    socket.on('error', reject);
    socket.on('data', (c) => chunks.push(c));
    socket.on('close', () => {
      const [head, ...rest] = Buffer.concat(chunks).toString('latin1').split('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), head, body: rest.join('\r\n\r\n'), sentBytes: first.length });
    });
    const lines = [
      `POST ${post.path} HTTP/1.1`,
      'Host: 127.0.0.1',
      `Content-Type: ${post.contentType}`,
      `Content-Length: ${post.declaredBytes}`,
      ...Object.entries(post.headers).map(([k, v]) => `${k}: ${v}`),
    ];
    socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    socket.write(first);
  });
}

/** The agent's cookies as a Cookie header, for requests made outside supertest. */
export const cookieHeader = (agent: Agent): string => agent.jar.getCookies(CookieAccessInfo.All).toValueString();

/** The app on an ephemeral loopback port; close() drops open connections first. */
export async function listenOnEphemeralPort(app: Express): Promise<{ server: Server; port: number; close(): Promise<void> }> {
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return {
    server,
    port: (server.address() as AddressInfo).port,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
