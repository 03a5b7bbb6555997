import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../logger';
import { requestIdOf } from './request-id';

// One compact line per answer, at info: the request's id (request-id.ts: nginx's
// X-Request-Id, or one made here), method, URL, address, status, milliseconds. No headers, so
// no cookies or tokens in the logs. Static files are left to the proxy's own log.
//
// In place of pino-http, which builds two child loggers per request (serialising the request
// into each) whether or not the line is written: a third of the app's own CPU on a page the
// cache answers (`node --cpu-prof` under `npm run bench`). Here a request costs one 'finish'
// listener, and nothing at all when info is off.

export function accessLog(logger: Logger) {
  // Plain node types: the server's front (cache-hit-fast-path.ts) logs the answers it sends too.
  return function accessLogMiddleware(req: IncomingMessage & { originalUrl?: string }, res: ServerResponse, next: () => void): void {
    if (!logger.isLevelEnabled('info') || req.url?.startsWith('/static/')) return next();
    const started = process.hrtime.bigint();
    const done = () => {
      res.off('finish', done);
      res.off('close', done);
      const entry = {
        // Top-level, as the logger's mixin writes it on the request's other lines.
        reqId: requestIdOf(req),
        req: { method: req.method, url: req.originalUrl ?? req.url, ip: req.socket.remoteAddress },
        res: { status: res.statusCode },
        responseTime: Math.round(Number(process.hrtime.bigint() - started) / 1e6),
      };
      // CASE: the client went away before the answer was complete.
      if (!res.writableFinished) logger.warn(entry, 'request aborted');
      else logger.info(entry, 'request completed');
    };
    res.on('finish', done);
    res.on('close', done);
    next();
  };
}
