/**
 * Waits until `done()` holds, checking every few milliseconds; fails with what it waited for
 * once `ms` have passed (a generous bound: a test waits on a condition, never a fixed sleep).
 */
export async function waitFor(what: string, done: () => boolean | Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
