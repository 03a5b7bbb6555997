// wrk (Debian's `wrk`, written in C) as the load generator where it is installed. On two shared
// cores the client takes its CPU from the servers it measures: autocannon, in Node, spends more
// per request than nginx does to answer from its cache (and more still decrypting TLS), so it
// measured itself, not the stack. Side by side (50 connections, 5 s, one run, load 5–7):
// autocannon gave the stack's cached home 2.3–2.7x the bare Express reference, wrk 5.1–6.0x.
import { execFile } from 'node:child_process';
import fs from 'node:fs';

export const WRK_PATH = process.env.WRK_PATH ?? '/usr/bin/wrk';

export const wrkInstalled = (): boolean => fs.existsSync(WRK_PATH);

export interface WrkResult {
  reqPerSec: number;
  /** Milliseconds. */
  p50: number;
  p99: number;
  requests: number;
  /** Answers that were not 2xx or 3xx. */
  non2xx: number;
  /** Connect, read and write errors. */
  errors: number;
  timeouts: number;
}

const UNIT_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };

function durationMs(text: string): number {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(text.trim());
  if (!m) throw new Error(`wrk: cannot read the duration "${text}"`);
  return Number(m[1]) * UNIT_MS[m[2]];
}

/** What `wrk --latency` printed, as numbers. */
export function parseWrkOutput(out: string): WrkResult {
  const pick = (re: RegExp, what: string): string => {
    const m = re.exec(out);
    if (!m) throw new Error(`wrk: no ${what} in its output:\n${out}`);
    return m[1];
  };
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  return {
    reqPerSec: Number(pick(/Requests\/sec:\s+([\d.]+)/, 'Requests/sec')),
    p50: durationMs(pick(/^\s+50%\s+(\S+)/m, '50th percentile')),
    p99: durationMs(pick(/^\s+99%\s+(\S+)/m, '99th percentile')),
    requests: Number(pick(/(\d+) requests in/, 'request count')),
    non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0),
    errors: socket ? Number(socket[1]) + Number(socket[2]) + Number(socket[3]) : 0,
    timeouts: socket ? Number(socket[4]) : 0,
  };
}

/** Runs wrk against url: one thread a core (at most `connections`), keep-alive, HTTP/1.1. */
export function runWrk(url: string, opts: { seconds: number; connections: number; threads?: number; headers?: Record<string, string> }): Promise<WrkResult> {
  const threads = Math.max(1, Math.min(opts.threads ?? 2, opts.connections));
  const args = ['-t', String(threads), '-c', String(opts.connections), '-d', `${opts.seconds}s`, '--latency', '--timeout', '10s'];
  for (const [name, value] of Object.entries(opts.headers ?? {})) args.push('-H', `${name}: ${value}`);
  args.push(url);
  return new Promise((resolve, reject) => {
    execFile(WRK_PATH, args, { maxBuffer: 1 << 20 }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`wrk failed: ${err.message}\n${stderr}`));
      try {
        resolve(parseWrkOutput(stdout));
      } catch (e) {
        reject(e);
      }
    });
  });
}
