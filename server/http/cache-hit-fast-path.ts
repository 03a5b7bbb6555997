import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { mayHaveBody } from './lingering-close';
import { nameRequest, REQUEST_ID_HEADER } from './request-id';

// The answers the page cache serves before the session (guest-response-cache.ts), served before
// Express itself. On such a hit Express's own work was most of the request's cost: its
// prototype swaps, its router matching a dozen layers in turn, and the middleware that sets
// the same headers on every answer (a CPU profile of `npm run bench:pglite`'s first-visit row:
// 0.41 ms a request against 0.19 for the bare Express route; docs/performance.md, issue 41
// target 5). Here a hit costs the look-up, the steps every answer has (its request id, its
// figures, its access-log line) and the write.
//
// The headers the steps before the cache set on every answer (helmet's, X-Instance) are read
// off the requests that go through Express, at the point where the cache would have served
// them (frontHeaders below), so a hit here carries exactly what it would have carried there;
// until one request has gone through, nothing is served here. What may differ per request is
// never copied: its id (made here), and the `Connection: close` of a server closing
// (graceful-close.ts sets it on the request's answer before any step runs).

/** Headers that belong to one answer, never to be copied to another. */
const OWN_HEADERS = new Set([REQUEST_ID_HEADER.toLowerCase(), 'connection']);

type PlainRequest = IncomingMessage & { originalUrl?: string };
type Step = (req: PlainRequest, res: ServerResponse, next: () => void) => void;

export interface CacheHitFastPathOptions {
  /** The page cache's before-the-session look-up and answer (guest-response-cache.ts). */
  serveBeforeSession: (req: PlainRequest, res: ServerResponse, beforeServing?: () => void) => boolean;
  /** What runs for every answer, in order, that sets no header (the figures, the access log). */
  everyAnswer: Step[];
}

export interface CacheHitFastPath {
  /** Serves the request if it is such a hit, before Express; answers whether it did. */
  serve: (req: IncomingMessage, res: ServerResponse) => boolean;
  /**
   * Express middleware in the place the page cache served from before: reads the headers the
   * steps before it set, and hands the request on.
   */
  readFrontHeaders: (req: IncomingMessage, res: ServerResponse, next: () => void) => void;
}

export function cacheHitFastPath(opts: CacheHitFastPathOptions): CacheHitFastPath {
  let frontHeaders: Array<[string, NonNullable<OutgoingHttpHeaders[string]>]> | undefined;
  const noop = () => {};

  function serve(req: PlainRequest, res: ServerResponse): boolean {
    // A GET with a body goes through Express, whose first step reads it (lingering-close.ts).
    if (!frontHeaders || mayHaveBody(req)) return false;
    const headers = frontHeaders;
    try {
      return opts.serveBeforeSession(req, res, () => {
        nameRequest(req, res);
        for (const [name, value] of headers) res.setHeader(name, value);
        for (const step of opts.everyAnswer) step(req, res, noop);
      });
    } catch {
      // Outside Express nothing would catch it: a throw here would end the process, whatever
      // the request. Unanswered, it goes to Express, whose error handler answers it.
      if (!res.headersSent) return false;
      res.destroy();
      return true;
    }
  }

  function readFrontHeaders(_req: IncomingMessage, res: ServerResponse, next: () => void): void {
    const read: typeof frontHeaders = [];
    for (const [name, value] of Object.entries(res.getHeaders())) {
      if (value !== undefined && !OWN_HEADERS.has(name)) read.push([name, value]);
    }
    frontHeaders = read;
    next();
  }

  return { serve, readFrontHeaders };
}
