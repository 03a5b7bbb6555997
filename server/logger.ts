import { AsyncLocalStorage } from 'node:async_hooks';
import pino, { type Logger } from 'pino';
import type { Config } from './config';

export type { Logger };

/** The request being handled (server/http/request-id.ts enters it for each request). */
export interface RequestScope {
  /** X-Request-Id: nginx's, kept when it is a sane token, else made here. */
  readonly id: string;
  /** Its route template as matched so far ('unmatched' before a route matches). */
  route(): string;
}

const scopes = new AsyncLocalStorage<RequestScope>();

/** Runs fn, and everything it starts, as the handling of that request. */
export function runInRequestScope<T>(scope: RequestScope, fn: () => T): T {
  return scopes.run(scope, fn);
}

/** The request the caller is handling, if any (a job or a sweep handles none). */
export function currentRequestScope(): RequestScope | undefined {
  return scopes.getStore();
}

/** The server's logger; `destination` (stdout unless given) is for tests that read the lines. */
export function createLogger(config: Pick<Config, 'logLevel'>, destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level: config.logLevel,
    // Every line written while a request is handled names it, as its access-log line does.
    mixin: () => {
      const scope = scopes.getStore();
      return scope ? { reqId: scope.id } : {};
    },
    redact: { paths: ['req.headers.cookie', 'req.headers.authorization', 'req.headers["x-csrftoken"]', 'res.headers["set-cookie"]'], remove: true },
  };
  return destination ? pino(options, destination) : pino(options);
}
