import type { Knex } from 'knex';
import crypto from 'node:crypto';
import { hashPassword } from '../../server/apps/accounts/passwords';
import { insertReturningIds } from './batch';
import type { Rng } from './random';

// Demo members. One argon2 hash is computed and shared by every demo account: hashing 300
// passwords would cost ~8 s and prove nothing.

export const DEMO_PASSWORD = 'toronto-demo-2004';
export const STAFF_EMAIL = 'editor@example.com';
export const STAFF_PASSWORD = 'toronto-editor-2004';

export const FIRST_NAMES = [
  'Aaliyah', 'Adam', 'Aiden', 'Aisha', 'Alex', 'Alicia', 'Amara', 'Amir', 'Ana', 'Andre', 'Anika', 'Arjun', 'Ava', 'Ben', 'Bianca', 'Caleb', 'Camila', 'Chen', 'Chloe',
  'Daniel', 'Daniela', 'David', 'Deepa', 'Diego', 'Elena', 'Eli', 'Emily', 'Emma', 'Ethan', 'Fatima', 'Felix', 'Gabriel', 'Grace', 'Hana', 'Harper', 'Hassan', 'Isabella',
  'Jack', 'Jasmine', 'Jin', 'Jordan', 'Julia', 'Kai', 'Kavya', 'Kenji', 'Layla', 'Leo', 'Liam', 'Lucas', 'Maya', 'Mei', 'Mia', 'Mohammed', 'Naomi', 'Nathan', 'Noah',
  'Nora', 'Olivia', 'Omar', 'Priya', 'Rahul', 'Riley', 'Rosa', 'Ryan', 'Samir', 'Sara', 'Sofia', 'Tariq', 'Thomas', 'Vikram', 'Wei', 'Yasmin', 'Zara', 'Zoe',
] as const;

export const LAST_NAMES = [
  'Ahmed', 'Ali', 'Anderson', 'Bouchard', 'Brown', 'Campbell', 'Chan', 'Chen', 'Cohen', 'Costa', 'Das', 'Dubois', 'Fernandes', 'Fraser', 'Gagnon', 'Garcia', 'Gill',
  'Gomez', 'Grant', 'Han', 'Hassan', 'Ho', 'Hughes', 'Ibrahim', 'Jones', 'Kaur', 'Khan', 'Kim', 'Kowalski', 'Lam', 'Lee', 'Li', 'Lin', 'MacDonald', 'Martin', 'Mensah',
  'Mohamed', 'Murphy', 'Nguyen', 'Novak', 'Okafor', 'Park', 'Patel', 'Pereira', 'Reid', 'Rossi', 'Roy', 'Santos', 'Shah', 'Sharma', 'Silva', 'Singh', 'Smith', 'Tan',
  'Taylor', 'Thompson', 'Tremblay', 'Tran', 'Wang', 'Williams', 'Wilson', 'Wong', 'Wu', 'Yang', 'Zhang',
] as const;

const NEWSLETTER_COLUMNS = ['news', 'events', 'foods', 'real_estate', 'travel', 'photo_challenge_alerts', 'promotions', 'contests'].map((n) => `settings_receive_newsletter_${n}`);

export interface MemberRef {
  id: number;
  email: string;
  fullName: string;
  dateJoined: Date;
}

export interface SeedMembersResult {
  members: MemberRef[];
  staff: MemberRef;
}

export async function seedMembers(db: Knex, opts: { rng: Rng; now: Date; count: number }): Promise<SeedMembersResult> {
  const { rng, now } = opts;
  const [memberHash, staffHash] = await Promise.all([hashPassword(DEMO_PASSWORD), hashPassword(STAFF_PASSWORD)]);
  const usedEmails = new Set<string>([STAFF_EMAIL]);
  const rows = Array.from({ length: opts.count }, (_, i) => {
    const r = rng.fork(`member:${i}`);
    const first = r.pick(FIRST_NAMES);
    const last = r.pick(LAST_NAMES);
    const base = `${first}.${last}`.toLowerCase();
    let email = `${base}@example.com`;
    for (let n = 2; usedEmails.has(email); n++) email = `${base}${n}@example.com`;
    usedEmails.add(email);
    const joined = new Date(now.getTime() - Math.floor(Math.pow(r.float(), 0.7) * 6 * 365 * 86_400_000) - 86_400_000);
    const row: Record<string, unknown> = {
      email,
      password_hash: memberHash,
      full_name: `${first} ${last}`,
      first_name: first,
      last_name: last,
      date_joined: joined,
      last_login: r.chance(0.7) ? new Date(Math.max(joined.getTime(), now.getTime() - r.int(0, 90) * 86_400_000)) : null,
      // A private calendar feed token, derived from the seed so reruns give the same rows.
      ics_token: crypto.createHash('sha256').update(`demo-ics:${rng.seed}:${i}`).digest('hex').slice(0, 40),
    };
    for (const col of NEWSLETTER_COLUMNS) row[col] = r.chance(0.35);
    return row;
  });
  const staffRow = {
    email: STAFF_EMAIL,
    password_hash: staffHash,
    full_name: 'Demo Editor',
    first_name: 'Demo',
    last_name: 'Editor',
    is_staff: true,
    // The demo newsroom: the editor account may do everything, roles included.
    newsroom_role: 'administrator',
    date_joined: new Date(now.getTime() - 8 * 365 * 86_400_000),
  };
  const [staffId] = await insertReturningIds(db, 'profiles', [staffRow]);
  const ids = await insertReturningIds(db, 'profiles', rows, 500);
  return {
    staff: { id: staffId, email: STAFF_EMAIL, fullName: staffRow.full_name, dateJoined: staffRow.date_joined },
    members: rows.map((r, i) => ({ id: ids[i], email: r.email as string, fullName: r.full_name as string, dateJoined: r.date_joined as Date })),
  };
}
