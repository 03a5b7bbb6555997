// npm run staff:grant -- <email> [--role contributor|writer|editor|administrator]   |   npm run staff:revoke -- <email>
// --role also gives the newsroom role (docs/newsroom.md); revoke takes both away.
// Who is staff (and may use /staff/) is set here, on the server, never through the API. Runs on
// DATABASE_URL, or on the embedded database in DATA_DIR (stop the server first: PGlite allows
// one process per data directory).
import type { Db } from '../server/db';
import { setStaff } from '../server/apps/staff/staff-role-queries';
import { runCommand, withDatabase } from './command';
import { isNewsroomRole, NEWSROOM_ROLES, type NewsroomRole } from '../shared/newsroom';

const USAGE = `usage: staff-role grant <email> [--role ${NEWSROOM_ROLES.join('|')}] | revoke <email>   (npm run staff:grant -- <email> [--role R], npm run staff:revoke -- <email>)`;

export interface StaffRoleArgs {
  command: 'grant' | 'revoke';
  email: string;
  /** grant only: the newsroom role to give as well. */
  role?: NewsroomRole;
}

export function parseArgs(argv: string[]): StaffRoleArgs {
  const [command, email, ...rest] = argv;
  const role = command === 'grant' && rest.length === 2 && rest[0] === '--role' && isNewsroomRole(rest[1]) ? rest[1] : undefined;
  if ((command === 'grant' || command === 'revoke') && (rest.length === 0 || role) && email && /^[^\s@]+@[^\s@]+$/.test(email.trim())) {
    return { command, email: email.trim().toLowerCase(), ...(role ? { role } : {}) };
  }
  throw new Error(USAGE);
}

/** Applies the command; answers the line to print. A missing member is an error (exit 1). */
export async function runStaffRole(db: Db, args: StaffRoleArgs): Promise<string> {
  const result = await setStaff(db, args.email, args.command === 'grant', args.command === 'grant' ? args.role : null);
  if (!result) throw new Error(`No member with the email ${args.email}.`);
  const now = args.command === 'grant' ? `is staff${args.role ? ` (newsroom: ${args.role})` : ''}` : 'is not staff';
  return result.changed ? `${result.email} (#${result.id}) ${now} now.` : `${result.email} (#${result.id}) already ${now}; nothing changed.`;
}

runCommand(module, async () => {
  const args = parseArgs(process.argv.slice(2));
  await withDatabase(async ({ db }) => console.log(await runStaffRole(db, args)));
});
