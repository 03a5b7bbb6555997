export interface WaitOptions {
  /** How often to check (default 10 ms; a test polling a database or a process asks less often). */
  everyMs?: number;
  /** What to show when it times out (a process's log, say): its last 4000 characters are added. */
  log?: () => string;
}

/**
 * Waits until `done()` holds, checking every few milliseconds; fails with what it waited for
 * once `ms` have passed (a generous bound: a test waits on a condition, never a fixed sleep).
 */
export async function waitFor(what: string, done: () => boolean | Promise<boolean>, ms: number, opts: WaitOptions = {}): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}${opts.log ? `\n--- log ---\n${opts.log().slice(-4000)}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, opts.everyMs ?? 10));
  }
}
