import net from 'node:net';

/**
 * A TCP proxy between the app and PostgreSQL that a test can cut and restore, as a database
 * restart looks from the app: every open connection is dropped and new ones are refused,
 * until it listens again on the same port. (The shared PostgreSQL server is never restarted.)
 */
export interface TcpProxy {
  port: number;
  /** Connections currently open through the proxy. */
  readonly open: number;
  /** Drops every connection and stops listening. */
  cut(): Promise<void>;
  /** Listens again on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  const track = (s: net.Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
    s.on('error', () => s.destroy());
  };
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    track(client);
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => client.destroy());
  });
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve((server.address() as net.AddressInfo).port);
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      if (!server.listening) return resolve();
      server.close(() => resolve());
    });
  const port = await listen(0);
  return {
    port,
    get open() {
      return sockets.size / 2;
    },
    cut: stop,
    restore: async () => {
      await listen(port);
    },
    close: stop,
  };
}
