import type { Knex } from 'knex';
import { migrations } from '../../migrations';

const source: Knex.MigrationSource<string> = {
  getMigrations: async () => migrations.map(([name]) => name),
  getMigrationName: (name) => name,
  getMigration: async (name) => {
    const found = migrations.find(([n]) => n === name);
    if (!found) throw new Error(`Unknown migration ${name}`);
    return { up: found[1].up, down: async () => { throw new Error('Migrations are forward-only'); } };
  },
};

/** Runs every pending migration; answers the names it ran. */
export async function migrateLatest(db: Knex): Promise<string[]> {
  const [, ran] = await db.migrate.latest({ migrationSource: source, tableName: 'knex_migrations' });
  return ran as string[];
}
