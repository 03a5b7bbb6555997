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

/** Linux's default range for outgoing connections' local ports (net.ipv4.ip_local_port_range). */
const EPHEMERAL_FROM = 32_768;

/**
 * A free port below the range the OS gives outgoing connections: for a server started a while
 * after its port is picked (nginx, once the node processes and the edge are up), whose port an
 * outgoing connection made meanwhile (a health probe, a database connection) could otherwise take.
 */
export async function freePortOutsideEphemeral(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * (EPHEMERAL_FROM - 20_000));
    const free = await new Promise<boolean>((resolve) => {
      const probe = net.createServer();
      probe.once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
    if (free) return port;
  }
  return freePort();
}
