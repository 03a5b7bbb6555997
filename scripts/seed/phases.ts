import type { Logger } from '../../server/logger';

/** Runs one named phase of the seed and logs how long it took. */
export function phaseTimer(logger: Pick<Logger, 'info'>) {
  const timings: Array<{ phase: string; ms: number }> = [];
  const run = async <T>(phase: string, fn: () => Promise<T>): Promise<T> => {
    const t0 = Date.now();
    const out = await fn();
    const ms = Date.now() - t0;
    timings.push({ phase, ms });
    logger.info({ phase, ms }, `seed: ${phase} (${(ms / 1000).toFixed(1)} s)`);
    return out;
  };
  return { run, timings };
}
