// npm run import:wordpress -- export.xml [--media DIR] [--default-type SLUG]
// Imports a WordPress export (WXR) as stories (issue 37, "Coming from WordPress"): posts become
// stories of the type their category names (others of the default type, `news`), their HTML a
// story document, their pictures (found in DIR, a copy of wp-content/uploads) go through the
// upload pipeline, and their old addresses answer 301. Safe to repeat: a post imported before is
// updated (by its guid), never duplicated. Pages are left out and listed. Runs on DATABASE_URL
// beside a running site, or on the embedded database in DATA_DIR (stop the server first).
import { createStorage } from '../server/storage/storage-factory';
import { formatReport, importWordPress } from '../server/apps/newsroom/wordpress-import';
import { commandLogger, runCommand, withDatabase } from './command';
import { loadConfig } from '../server/config';

const USAGE = 'usage: npm run import:wordpress -- export.xml [--media DIR] [--default-type SLUG]';

export interface ImportWordPressArgs {
  file: string;
  mediaDir?: string;
  defaultType?: string;
}

export function parseArgs(argv: string[]): ImportWordPressArgs {
  let file: string | undefined;
  let mediaDir: string | undefined;
  let defaultType: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--media' || a === '--default-type') {
      const v = argv[++i];
      if (!v) throw new Error(USAGE);
      if (a === '--media') mediaDir = v;
      else defaultType = v;
    } else if (a.startsWith('--media=')) mediaDir = a.slice('--media='.length);
    else if (a.startsWith('--default-type=')) defaultType = a.slice('--default-type='.length);
    else if (!a.startsWith('-') && !file) file = a;
    else throw new Error(USAGE);
  }
  if (!file) throw new Error(USAGE);
  return { file, mediaDir, defaultType };
}

runCommand(module, async () => {
  const args = parseArgs(process.argv.slice(2));
  const config = loadConfig();
  await withDatabase(
    async ({ db }) => {
      let n = 0;
      const report = await importWordPress(db, createStorage(config), args.file, {
        mediaDir: args.mediaDir,
        defaultType: args.defaultType,
        onPost: () => {
          if (++n % 500 === 0) console.error(`… ${n} posts`);
        },
      });
      console.log(formatReport(report));
    },
    { config, logger: commandLogger(config) },
  );
});
