import type { Db } from '../../db';
import type { StaffActor } from '../staff-audit/audit-log';

// Who is staff is decided on the server's command line (npm run staff:grant / staff:revoke),
// never through the API: no route writes is_staff. The session reads the flag from the
// profile on every request, so a change applies at once to a signed-in member.

export async function setStaff(db: Db, email: string, isStaff: boolean): Promise<{ id: number; email: string; changed: boolean } | null> {
  return db.transaction(async (trx) => {
    const row = await trx('profiles').whereRaw('lower(email) = ?', [email.trim().toLowerCase()]).forUpdate().first('id', 'email', 'is_staff');
    if (!row) return null;
    if (row.is_staff === isStaff) return { id: Number(row.id), email: row.email, changed: false };
    await trx('profiles').where({ id: row.id }).update({ is_staff: isStaff });
    return { id: Number(row.id), email: row.email, changed: true };
  });
}

/** A staff account by its email, to act as on the command line; null if there is no such member, 'not-staff' if they are not staff. */
export async function staffActorByEmail(db: Db, email: string): Promise<StaffActor | 'not-staff' | null> {
  const row = await db('profiles').whereRaw('lower(email) = ?', [email.trim().toLowerCase()]).first('id', 'email', 'is_staff');
  if (!row) return null;
  return row.is_staff ? { id: Number(row.id), email: row.email } : 'not-staff';
}
