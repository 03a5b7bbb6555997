// knex's PostgreSQL client class, which server/db/replica.ts extends (knex exports no type for
// it): the part of it the replica reader overrides.
declare module 'knex/lib/dialects/postgres/index.js' {
  import type { Knex } from 'knex';

  export default class PgClient extends Knex.Client {
    /** Sends one compiled query on a pooled pg connection. */
    _query(connection: unknown, obj: unknown): Promise<unknown>;
  }
}
