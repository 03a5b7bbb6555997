import type { NextFunction, Request, Response } from 'express';
import { measureQueries, type QueryStats } from '../db/query-stats';

// Every response says how many queries it ran and how long the database took, as a
// Server-Timing entry (browsers' developer tools show it; `npm run bench` reads it):
//   Server-Timing: db;desc="3 queries";dur=1.27
// The entry is written when the headers go out, so it counts what ran before the first byte.
// A response from the guest cache says "0 queries". On unless SERVER_TIMING=false, but in
// production, where it is on only with SERVER_TIMING=true (config.ts says what it costs).

export function serverTimingEntry(stats: QueryStats): string {
  // Always "queries", even for one: readers (scripts/bench/site.ts) match this exact shape.
  return `db;desc="${stats.queries} queries";dur=${stats.ms.toFixed(2)}`;
}

/** Middleware: counts the request's queries and adds the `db` entry to its Server-Timing header. */
export function serverTiming() {
  return function serverTimingMiddleware(_req: Request, res: Response, next: NextFunction): void {
    measureQueries((stats) => {
      const writeHead = res.writeHead;
      // Node calls writeHead for every response, explicit or implicit (first write, end).
      res.writeHead = function writeHeadWithTiming(this: Response, ...args: unknown[]) {
        if (!this.headersSent) {
          const earlier = this.getHeader('Server-Timing');
          const entry = serverTimingEntry(stats);
          this.setHeader('Server-Timing', earlier ? `${entry}, ${String(earlier)}` : entry);
        }
        return (writeHead as (...a: unknown[]) => Response).apply(this, args);
      } as Response['writeHead'];
      next();
    });
  };
}
