import WebSocket from 'ws';

/**
 * The HTTP status a server answers a websocket upgrade with (101 when it opens; the socket is
 * closed at once), as a browser's request would be answered: live co-editing's refusals are
 * tested this way, directly and through nginx and Varnish.
 */
export function websocketUpgradeStatus(url: string, headers: Record<string, string>, opts: { ca?: string | Buffer } = {}): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { headers, ...(opts.ca ? { ca: opts.ca } : {}) });
    ws.on('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.on('open', () => {
      resolve(101);
      ws.close();
    });
    ws.on('error', () => resolve(-1));
  });
}
