import type { Logger } from '../../server/logger';

/** A line a person reads while the seed runs (npm start prints them to the terminal). */
export type SeedProgress = (line: string) => void;

/**
 * Runs one named phase of the seed and logs how long it took. With `progress`, each phase is
 * also announced as it starts, numbered out of `total`, so a first `npm start` that seeds for a
 * minute or two shows where it is instead of sitting silent.
 */
export function phaseTimer(logger: Pick<Logger, 'info'>, progress?: { report: SeedProgress; total: number }) {
  const timings: Array<{ phase: string; ms: number }> = [];
  const run = async <T>(phase: string, fn: () => Promise<T>): Promise<T> => {
    progress?.report(`  [${timings.length + 1}/${progress.total}] ${phase}…`);
    const t0 = Date.now();
    const out = await fn();
    const ms = Date.now() - t0;
    timings.push({ phase, ms });
    logger.info({ phase, ms }, `seed: ${phase} (${(ms / 1000).toFixed(1)} s)`);
    return out;
  };
  return { run, timings };
}
