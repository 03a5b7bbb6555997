// npm run accounts:purge
// Deletes the personal data of every account whose seven days after "Delete my account" are
// over (server/apps/account-deletion/purge-job.ts). The server does the same hourly by itself
// (the accounts.purge job in apps/index.ts appJobs); this runs it once, from cron or by hand. Runs on DATABASE_URL, or
// on the embedded database in DATA_DIR (stop the server first: PGlite allows one process).
import { loadConfig } from '../server/config';
import { buildAppContext, droppedMail } from '../server/app-context';
import { purgeDueAccounts } from '../server/apps/account-deletion/purge-job';
import { commandLogger, runCommand, withDatabase } from './command';

runCommand(module, async () => {
  const config = loadConfig();
  const logger = commandLogger(config);
  await withDatabase(
    async (handle) => {
      // The purge sends no mail; the context gives it the storage and the save kinds the server uses.
      const purged = await purgeDueAccounts(buildAppContext(config, handle, { logger, mailer: droppedMail }));
      if (!purged.length) console.log('No accounts are due for deletion.');
      for (const p of purged) {
        const content = p.content === 'remove' ? `${p.photosRemoved} photos and ${p.eventsRemoved} events deleted` : `${p.photosKept} photos and ${p.eventsKept} events kept without a name`;
        console.log(`account #${p.profileId} deleted (${content})`);
      }
    },
    { config, logger },
  );
});
