// npm run events:moderate -- list | approve <id> [--note "…"] | reject <id> [--note "…"]
// The staff command for the queue of member-submitted events (status pending). Runs on
// DATABASE_URL, or on the embedded database in DATA_DIR (stop the server first: PGlite allows
// one process per data directory).
import { loadConfig } from '../server/config';
import { openDatabaseFromConfig } from '../server/db';
import { migrateLatest } from '../server/db/migrate';
import { listPendingEvents, moderateEvent } from '../server/apps/event-submissions/moderation';

const USAGE = 'usage: events-moderate list | approve <id> [--note "…"] | reject <id> [--note "…"]';

export function parseArgs(argv: string[]): { command: 'list' } | { command: 'approve' | 'reject'; id: number; note: string } {
  const [command, idText, ...rest] = argv;
  if (command === 'list' && argv.length === 1) return { command };
  if ((command === 'approve' || command === 'reject') && /^\d{1,9}$/.test(idText ?? '')) {
    let note = '';
    for (let i = 0; i < rest.length; i++) {
      if (rest[i] === '--note' && rest[i + 1] !== undefined) note = rest[++i];
      else if (rest[i].startsWith('--note=')) note = rest[i].slice('--note='.length);
      else throw new Error(USAGE);
    }
    return { command, id: Number(idText), note };
  }
  throw new Error(USAGE);
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const config = loadConfig();
  const handle = await openDatabaseFromConfig(config);
  try {
    await migrateLatest(handle.db);
    if (args.command === 'list') {
      const pending = await listPendingEvents(handle.db);
      if (!pending.length) console.log('No events are waiting for moderation.');
      for (const e of pending) {
        const when = e.end_date && e.end_date !== e.start_date ? `${e.start_date} – ${e.end_date}` : e.start_date;
        console.log(`#${e.id}  ${e.title}\n      ${e.schedule_type}, ${when} (${e.occurrence_count} dates) at ${e.venue_name || '(no venue)'} ${e.address}\n      submitted by ${e.submitter_email ?? 'unknown'} on ${new Date(e.date_created).toISOString()}`);
      }
      return;
    }
    const done = await moderateEvent(handle.db, args.id, args.command === 'approve' ? 'approved' : 'rejected', args.note);
    console.log(`#${done.id} "${done.title}" is now ${done.status}.`);
  } finally {
    await handle.close();
  }
}

if (require.main === module) {
  main().catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
