import crypto from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { runInRequestScope } from '../logger';
import { routeTemplate } from './route-template';

// Every request has an id: the X-Request-Id nginx sends ($request_id, 32 hex digits) when it is
// a sane token, else one made here. It goes back in the answer's X-Request-Id header, in the
// access-log line (access-log.ts) and in every log line written while the request is handled
// (the logger's mixin reads the request scope this middleware enters). A header that is not a
// short token of [A-Za-z0-9._-] is replaced, never copied: it would go into every log line.

export const REQUEST_ID_HEADER = 'X-Request-Id';

const SANE_ID = /^[A-Za-z0-9._-]{1,128}$/;

const IDS = new WeakMap<IncomingMessage, string>();

/** The request's id (undefined before requestId() ran). */
export function requestIdOf(req: IncomingMessage): string | undefined {
  return IDS.get(req);
}

/** The id an incoming X-Request-Id header gives, if it is one worth keeping. */
export function keptRequestId(header: string | string[] | undefined): string | undefined {
  return typeof header === 'string' && SANE_ID.test(header) ? header : undefined;
}

/** Gives the request its id, in the answer's header too; answers the id. */
export function nameRequest(req: IncomingMessage, res: ServerResponse): string {
  const id = keptRequestId(req.headers['x-request-id']) ?? crypto.randomUUID();
  IDS.set(req, id);
  res.setHeader(REQUEST_ID_HEADER, id);
  return id;
}

/** Middleware, first of all: names the request and runs the rest of its handling in its scope. */
export function requestId() {
  return function requestIdMiddleware(req: Request, res: Response, next: NextFunction): void {
    const id = nameRequest(req, res);
    runInRequestScope({ id, route: () => routeTemplate(req, res) }, next);
  };
}
