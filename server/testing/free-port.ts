import net from 'node:net';

/** A TCP port on 127.0.0.1 that was free a moment ago (the OS picked it; nothing holds it now). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
    probe.once('error', reject);
  });
}
