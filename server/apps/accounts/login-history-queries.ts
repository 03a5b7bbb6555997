import type { Request } from 'express';
import type { Db } from '../../db';

// The member's sign-in history (table login_history), which they download with their data
// (server/apps/member-data). Retention: a member's rows older than LOGIN_HISTORY_MAX_AGE_DAYS
// and those beyond the newest LOGIN_HISTORY_KEEP are deleted at each of their sign-ins, so the
// history is "the last 100 sign-ins of the past year" and never grows without bound.

export type LoginMethod = 'password' | 'facebook' | 'apple';

export const LOGIN_HISTORY_KEEP = 100;
export const LOGIN_HISTORY_MAX_AGE_DAYS = 365;

/** Column sizes of the table: longer values are cut, never refused (the sign-in succeeded). */
const IP_MAX = 64;
const USER_AGENT_MAX = 512;

export async function recordSignIn(db: Db, profileId: number, req: Request, method: LoginMethod, at: Date): Promise<void> {
  await db('login_history').insert({
    profile_id: profileId,
    logged_in_at: at,
    // req.ip honours the trust proxy setting: the client's address behind our own proxies only.
    ip: String(req.ip ?? '').slice(0, IP_MAX),
    user_agent: String(req.get('user-agent') ?? '').slice(0, USER_AGENT_MAX),
    method,
  });
  const cutoff = new Date(at.getTime() - LOGIN_HISTORY_MAX_AGE_DAYS * 86_400_000);
  await db('login_history')
    .where({ profile_id: profileId })
    .andWhere((q) =>
      q.where('logged_in_at', '<', cutoff).orWhereNotIn(
        'id',
        db('login_history').where({ profile_id: profileId }).orderBy([{ column: 'logged_in_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(LOGIN_HISTORY_KEEP).select('id'),
      ),
    )
    .delete();
}
