import type { IncomingMessage, Server, ServerResponse } from 'node:http';

// server.close() alone stops accepting connections but leaves keep-alive ones open: a client
// (nginx, a browser, an agent) that keeps sending on them is served for the whole grace
// period, and the in-flight requests still running at its end are cut off. So once closing,
// every response says `Connection: close` (Node then ends the socket after it), idle
// connections are closed at once, and each connection is closed as soon as its response is
// done. Requests in flight, a slow upload included, run to their end.

export interface GracefulClose {
  /** Resolves once every connection has closed; `deadline` (ms) then cuts what remains. */
  close(deadlineMs: number): Promise<{ forced: boolean }>;
}

/** Call right after the server is created, before it serves anything. */
export function gracefulClose(server: Server): GracefulClose {
  const inFlight = new Set<ServerResponse>();
  let closing = false;

  const closeIdleSoon = () => setImmediate(() => server.closeIdleConnections());

  // Prepended, so it runs before the app could answer the request (a cached page is sent at once).
  server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
    if (closing && !res.headersSent) res.setHeader('Connection', 'close');
    inFlight.add(res);
    res.once('close', () => {
      inFlight.delete(res);
      // A response whose headers were already sent kept its connection alive: close it now.
      if (closing) closeIdleSoon();
    });
  });

  return {
    close(deadlineMs) {
      closing = true;
      for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
      let forced = false;
      return new Promise((resolve) => {
        const force = setTimeout(() => {
          forced = true;
          server.closeAllConnections();
        }, deadlineMs).unref();
        server.close(() => {
          clearTimeout(force);
          resolve({ forced });
        });
        server.closeIdleConnections();
      });
    },
  };
}
