// npm run migrate: runs pending migrations on DATABASE_URL, or on the embedded database.
import { loadConfig } from '../server/config';
import { openDatabaseFromConfig } from '../server/db';
import { migrateLatest } from '../server/db/migrate';

async function main() {
  const config = loadConfig();
  const handle = await openDatabaseFromConfig(config);
  try {
    const t0 = Date.now();
    const ran = await migrateLatest(handle.db);
    console.log(ran.length ? `ran ${ran.length} migrations in ${Date.now() - t0} ms` : 'already up to date');
  } finally {
    await handle.close();
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
