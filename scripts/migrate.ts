// npm run migrate: runs pending migrations on DATABASE_URL, or on the embedded database.
import { runCommand, withDatabase } from './command';

// withDatabase migrates before anything else: this command only reports what it did.
runCommand(module, () =>
  withDatabase(async ({ migrated: { ran, ms } }) => {
    console.log(ran.length ? `ran ${ran.length} migrations in ${ms} ms` : 'already up to date');
  }),
);
