import type { Db } from '../../db';

// The contact form's messages (table contact_messages), kept whether or not the email to
// staff goes out (used-captcha-key-queries.ts has the captcha keys already answered).

export interface NewContactMessage {
  question_category: string;
  comment: string;
  name: string;
  email: string;
  business_name: string;
  phone_number: string;
  profile_id: number | null;
  ip: string;
}

/** Stores a message; its id. */
export async function insertContactMessage(db: Db, message: NewContactMessage): Promise<number> {
  const [row] = await db('contact_messages').insert(message).returning('id');
  return Number(row.id ?? row);
}

/** Notes that the message reached the staff address. */
export async function markContactMessageEmailed(db: Db, id: number, at: Date): Promise<void> {
  await db('contact_messages').where({ id }).update({ emailed_at: at });
}
