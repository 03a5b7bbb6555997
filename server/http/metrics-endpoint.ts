import crypto from 'node:crypto';
import http, { type Server } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from '../logger';
import { scrapeMetrics } from './metrics';

// Where Prometheus reads the figures (metrics.ts), two ways, either or both:
// - METRICS_PORT: a listener of its own on METRICS_HOST (127.0.0.1 unless said), answering
//   GET /metrics and nothing else. Each process has its own port, so Prometheus scrapes every
//   process (behind nginx a scrape of the site's port would reach one of them at random).
// - METRICS_TOKEN: GET /metrics on the app's own port with `Authorization: Bearer <token>`,
//   for a platform that reaches only that port; the token is compared in constant time, and a
//   request without it (or with another) is 401. Without METRICS_TOKEN the path is the site's
//   404. nginx answers /metrics itself (404), so the token route is reached only from inside.

export const METRICS_PATH = '/metrics';

const digest = (value: string) => crypto.createHash('sha256').update(value).digest();

/** Whether the Authorization header carries the token (hashes compared: the same length, in constant time). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const given = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1] ?? '';
  return crypto.timingSafeEqual(digest(given), digest(token));
}

async function sendFigures(res: http.ServerResponse, logger: Pick<Logger, 'error'>): Promise<void> {
  try {
    const { contentType, body } = await scrapeMetrics();
    res.writeHead(200, { 'Content-Type': contentType, 'Cache-Control': 'no-store' });
    res.end(body);
  } catch (err) {
    logger.error({ err }, 'metrics: scrape failed');
    if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end('scrape failed\n');
  }
}

/** GET /metrics on the app's port, for the bearer token (mounted before the access log: scrapes are not logged). */
export function metricsRoute(token: string, logger: Pick<Logger, 'warn' | 'error'>) {
  return function metricsRouteHandler(req: Request, res: Response, _next: NextFunction): void {
    if (!bearerMatches(req.headers.authorization, token)) {
      logger.warn({ ip: req.socket.remoteAddress }, 'metrics: scrape refused (no token, or a wrong one)');
      res.status(401).set({ 'WWW-Authenticate': 'Bearer realm="metrics"', 'Cache-Control': 'no-store' }).type('text/plain').send('Unauthorized\n');
      return;
    }
    void sendFigures(res, logger);
  };
}

/** The figures' own listener (METRICS_PORT on METRICS_HOST): resolves once it listens. */
export function startMetricsServer(opts: { port: number; host: string }, logger: Pick<Logger, 'error'>): Promise<Server> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== METRICS_PATH || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Not found: the figures are at /metrics\n');
      return;
    }
    void sendFigures(res, logger);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}
