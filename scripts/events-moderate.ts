// npm run events:moderate -- list | approve <id> --as <staff email> [--note "…"] | reject <id> --as <staff email> --note "…"
// The staff command for the queue of member-submitted events (status pending). A decision goes
// through the staff area's own service (server/apps/staff/event-queue-queries.ts), acting as the staff
// account given by --as: it is written to the staff audit log and the member is emailed, as
// from /staff/events/. Mail goes to SMTP_URL, or to DATA_DIR/outbox. Runs on DATABASE_URL, or
// on the embedded database in DATA_DIR (stop the server first: PGlite allows one process per
// data directory).
import { loadConfig } from '../server/config';
import { listPendingEvents } from '../server/apps/event-submissions/moderation-queries';
import { moderatePendingEvents, type ModerationContext } from '../server/apps/staff/event-queue-queries';
import { moderationFormSchema } from '../server/apps/staff/schemas';
import { staffActorByEmail } from '../server/apps/staff/staff-role-queries';
import { commandLogger, commandMailer, runCommand, withDatabase } from './command';

const USAGE = 'usage: events-moderate list | approve <id> --as <staff email> [--note "…"] | reject <id> --as <staff email> --note "…"';

export type EventsModerateArgs = { command: 'list' } | { command: 'approve' | 'reject'; id: number; note: string; as: string };

export function parseArgs(argv: string[]): EventsModerateArgs {
  const [command, idText, ...rest] = argv;
  if (command === 'list' && argv.length === 1) return { command };
  if ((command === 'approve' || command === 'reject') && /^\d{1,9}$/.test(idText ?? '')) {
    const options: Record<'note' | 'as', string | undefined> = { note: undefined, as: undefined };
    for (let i = 0; i < rest.length; i++) {
      const [, name, inline] = /^--(note|as)(?:=(.*))?$/s.exec(rest[i]) ?? [];
      if (!name) throw new Error(USAGE);
      const value = inline ?? rest[++i];
      if (value === undefined) throw new Error(USAGE);
      options[name as 'note' | 'as'] = value;
    }
    // The actor is required: every decision is recorded under a staff member's name.
    if (!options.as || !/^[^\s@]+@[^\s@]+$/.test(options.as.trim())) throw new Error(USAGE);
    // The staff area's own rules for the note: trimmed, at most NOTE_MAX, required to reject.
    const form = moderationFormSchema.safeParse({ decision: command === 'approve' ? 'approved' : 'rejected', note: options.note });
    if (!form.success) throw new Error(`${form.error.issues.map((i) => `--note: ${i.message}`).join('\n')}\n${USAGE}`);
    return { command, id: Number(idText), note: form.data.note, as: options.as.trim().toLowerCase() };
  }
  throw new Error(USAGE);
}

const MAIL_LINE = { sent: 'the member was emailed', failed: 'the member could NOT be emailed (see the log)', none: 'nobody to email' } as const;

/** Runs one command; answers the lines to print. An unknown or non-staff --as account is an error. */
export async function runEventsModerate(ctx: ModerationContext, args: EventsModerateArgs): Promise<string[]> {
  if (args.command === 'list') {
    const pending = await listPendingEvents(ctx.db);
    if (!pending.length) return ['No events are waiting for moderation.'];
    return pending.map((e) => {
      const when = e.end_date && e.end_date !== e.start_date ? `${e.start_date} – ${e.end_date}` : e.start_date;
      return `#${e.id}  ${e.title}\n      ${e.schedule_type}, ${when} (${e.occurrence_count} dates) at ${e.venue_name || '(no venue)'} ${e.address}\n      submitted by ${e.submitter_email ?? 'unknown'} on ${new Date(e.date_created).toISOString()}`;
    });
  }
  const actor = await staffActorByEmail(ctx.db, args.as);
  if (!actor) throw new Error(`No member with the email ${args.as}.`);
  if (actor === 'not-staff') throw new Error(`${args.as} is not staff: only staff accounts moderate events (npm run staff:grant -- <email>).`);
  const done = await moderatePendingEvents(ctx, actor, [args.id], args.command === 'approve' ? 'approved' : 'rejected', args.note);
  return [`#${done.ids[0]} "${done.title}" is now ${done.status} by ${actor.email}; ${MAIL_LINE[done.mail]}.`];
}

runCommand(module, async () => {
  const args = parseArgs(process.argv.slice(2));
  const config = loadConfig();
  const logger = commandLogger(config);
  await withDatabase(
    async ({ db }) => {
      for (const line of await runEventsModerate({ db, config, mailer: commandMailer(config, logger), logger, now: () => new Date() }, args)) console.log(line);
    },
    { config, logger },
  );
});
