import type { Db } from '../../db';
import { findMemberBy, findMemberByEmail, insertMember, isUniqueViolation, linkSocialId } from '../profiles/member-queries';
import type { Member } from '../profiles/member';

export interface SocialIdentity {
  provider: 'apple_sub' | 'facebook_id';
  id: string;
  email?: string;
  /** Only a verified address may be linked to an existing account. */
  emailVerified: boolean;
  fullName?: string;
}

export class SocialLoginError extends Error {}

/**
 * The identity is an account that is not active: closed for deletion by its owner, or
 * disabled. The provider vouched for who this is, as a matching password does, so the login
 * may say why (AccountsService.inactiveNotice).
 */
export class InactiveAccountError extends SocialLoginError {
  constructor(readonly memberId: number) {
    super('This account is inactive.');
  }
}

/**
 * The member a social identity signs in as: the one already linked to it; else the account
 * with the same verified email, now linked; else a new member (no password: they can set one
 * through the reset link).
 */
export async function memberForSocialIdentity(db: Db, identity: SocialIdentity): Promise<Member> {
  const linked = await findMemberBy(db, identity.provider, identity.id);
  if (linked) {
    if (!linked.is_active) throw new InactiveAccountError(linked.id);
    return linked;
  }
  const email = identity.email?.trim().toLowerCase();
  if (!email) throw new SocialLoginError('The provider did not share an email address.');
  const existing = await findMemberByEmail(db, email);
  if (existing) {
    if (!identity.emailVerified) throw new SocialLoginError('The email address is not verified by the provider.');
    if (!existing.is_active) throw new InactiveAccountError(existing.id);
    await linkSocialId(db, existing.id, identity.provider, identity.id);
    const { password_hash: _hash, ...member } = existing;
    return member;
  }
  try {
    return await insertMember(db, { email, password_hash: null, full_name: (identity.fullName ?? '').slice(0, 50), [identity.provider]: identity.id });
  } catch (err) {
    // CASE: a second request for the same new identity won the race; sign in as that one.
    if (isUniqueViolation(err)) {
      const winner = await findMemberBy(db, identity.provider, identity.id);
      if (winner) return winner;
    }
    throw err;
  }
}
