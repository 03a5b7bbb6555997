import type { Db } from '../../db';
import type { StaffActor } from '../staff-audit/audit-log-queries';
import type { NewsroomRole } from '../../../shared/newsroom';

// Who is staff is decided on the server's command line (npm run staff:grant / staff:revoke),
// never through the API: no route writes is_staff. The session reads the flag from the
// profile on every request, so a change applies at once to a signed-in member.

/**
 * Staff or not; `role` (undefined: unchanged, null: none) is the newsroom role (shared/newsroom.ts),
 * which an administrator may also set on /staff/roles/.
 */
export async function setStaff(db: Db, email: string, isStaff: boolean, role?: NewsroomRole | null): Promise<{ id: number; email: string; changed: boolean } | null> {
  return db.transaction(async (trx) => {
    const row = await trx('profiles').whereRaw('lower(email) = ?', [email.trim().toLowerCase()]).forUpdate().first('id', 'email', 'is_staff', 'newsroom_role');
    if (!row) return null;
    const newRole = role === undefined ? row.newsroom_role : role;
    if (row.is_staff === isStaff && row.newsroom_role === newRole) return { id: Number(row.id), email: row.email, changed: false };
    await trx('profiles').where({ id: row.id }).update({ is_staff: isStaff, newsroom_role: newRole });
    return { id: Number(row.id), email: row.email, changed: true };
  });
}

/** A staff account by its email, to act as on the command line; null if there is no such member, 'not-staff' if they are not staff. */
export async function staffActorByEmail(db: Db, email: string): Promise<StaffActor | 'not-staff' | null> {
  const row = await db('profiles').whereRaw('lower(email) = ?', [email.trim().toLowerCase()]).first('id', 'email', 'is_staff');
  if (!row) return null;
  return row.is_staff ? { id: Number(row.id), email: row.email } : 'not-staff';
}
