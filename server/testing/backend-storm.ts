import knexFactory, { type Knex } from 'knex';

/**
 * Terminates every backend of one database (only that one: other test databases share the
 * server), as a failover or `pg_terminate_backend` by an operator does, while a test's load
 * runs. Paced by the load, not by a clock: a round of terminations after every `every`
 * answers, so connections die mid-query, idle in the pool and while connecting, and some
 * requests still get through in between.
 */
export interface BackendStorm {
  /** Call once per answer the load received. */
  answered(): void;
  /** Backends terminated so far. */
  readonly terminated: number;
  /** Stops after the round in progress. */
  stop(): Promise<void>;
}

export function startBackendStorm(serverUrl: string, database: string, every = 3): BackendStorm {
  // Connected to the server's default database, so never one of the backends it terminates.
  const admin: Knex = knexFactory({ client: 'pg', connection: serverUrl, pool: { min: 0, max: 1 } });
  let terminated = 0;
  let pending = 0;
  let stopped = false;
  let wake: (() => void) | null = null;
  const loop = (async () => {
    while (!stopped) {
      if (pending < every) {
        await new Promise<void>((resolve) => (wake = resolve));
        continue;
      }
      pending = 0;
      const { rows } = await admin.raw(
        'select count(*)::int as n from (select pg_terminate_backend(pid) as done from pg_stat_activity where datname = ? and pid <> pg_backend_pid()) t where done',
        [database],
      );
      terminated += rows[0].n;
    }
  })();
  return {
    answered() {
      pending += 1;
      if (pending >= every && wake) {
        wake();
        wake = null;
      }
    },
    get terminated() {
      return terminated;
    },
    async stop() {
      stopped = true;
      wake?.();
      await loop;
      await admin.destroy();
    },
  };
}
