// npx tsx scripts/bench/request-scope.ts
// What naming every request costs the process (server/http/request-id.ts): the id (nginx's kept,
// or a random UUID made), the X-Request-Id header, and the request scope (AsyncLocalStorage) that
// every later step runs in, so that each log line carries the id. A request here is the
// middleware and a handler that awaits a few times, as a page's handler awaits its queries;
// compared with the same handler run bare. Prints the median of 7 rounds of 100,000 requests.
import { performance } from 'node:perf_hooks';
import type { NextFunction, Request, Response } from 'express';
import { requestId } from '../../server/http/request-id';
import { currentRequestScope } from '../../server/logger';

const N = 100_000;
const ROUNDS = 7;
/** Awaits in the handler: each one is a point where AsyncLocalStorage's context is carried on. */
const AWAITS = 5;

async function handler(readScope: boolean): Promise<void> {
  for (let i = 0; i < AWAITS; i++) await Promise.resolve(i);
  // As a log line would: the logger's mixin reads the scope.
  if (readScope && !currentRequestScope()) throw new Error('the request scope was lost');
}

const fakeRes = () => ({ setHeader: () => undefined }) as unknown as Response;

const named = (header: string | undefined) => (): Promise<void> =>
  new Promise<void>((resolve, reject) => {
    const req = { headers: header ? { 'x-request-id': header } : {} } as unknown as Request;
    requestId()(req, fakeRes(), (() => handler(true).then(resolve, reject)) as NextFunction);
  });

const variants: Array<{ name: string; request: () => Promise<void> }> = [
  { name: 'bare handler', request: () => handler(false) },
  { name: 'requestId(), id made here (random UUID)', request: named(undefined) },
  { name: "requestId(), nginx's id kept", request: named('6f1c2a4b9d8e7f60a1b2c3d4e5f60718') },
  // On Node 20, AsyncLocalStorage works through a promise hook that, once a scope was entered,
  // runs for every promise of the process, in a request's scope or not.
  { name: 'bare handler, after a request scope was entered once', request: () => handler(false) },
];

async function main(): Promise<void> {
  for (const v of variants) {
    const round = async () => {
      for (let i = 0; i < N; i++) await v.request();
    };
    await round(); // warm-up
    const ns: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const t0 = performance.now();
      await round();
      ns.push(((performance.now() - t0) * 1e6) / N);
    }
    ns.sort((a, b) => a - b);
    console.log(`${v.name}: median ${ns[ROUNDS >> 1].toFixed(0)} ns/request (min ${ns[0].toFixed(0)}, max ${ns[ROUNDS - 1].toFixed(0)})`);
  }
}

void main();
