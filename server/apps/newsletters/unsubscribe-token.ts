import crypto from 'node:crypto';
import { NEWSLETTERS } from '../../../shared/constants';

// The unsubscribe link of one newsletter email: who it was sent to (a member or a guest
// subscription, by id) and which newsletter, signed with an HMAC-SHA256 keyed from
// SESSION_SECRET. No login is needed and nothing is stored per email; a token cannot be guessed
// or altered (any change breaks the signature), and it does not expire, as CASL wants the
// mechanism to work for at least 60 days after sending. Rotating SESSION_SECRET retires the
// links of emails already sent (members can still unsubscribe from the dashboard).

/** A newsletter by its short name: the part after settings_receive_newsletter_ (also the guest field). */
export const NEWSLETTER_TYPES = NEWSLETTERS.map((n) => n.id.replace('settings_receive_newsletter_', '')) as Array<NewsletterType>;
export type NewsletterType = (typeof NEWSLETTERS)[number]['id'] extends `settings_receive_newsletter_${infer T}` ? T : never;

export interface Recipient {
  kind: 'member' | 'guest';
  id: number;
}

export interface UnsubscribeGrant extends Recipient {
  /** One newsletter, or all of them. */
  newsletter: NewsletterType | 'all';
}

const KIND_CODE = { member: 'm', guest: 'g' } as const;

/** A key of its own, derived from the session secret, so a token is worth nothing as a cookie signature and vice versa. */
function keyFrom(secret: string): Buffer {
  return crypto.createHmac('sha256', secret).update('newsletter-unsubscribe/v1').digest();
}

function signature(secret: string, payload: string): string {
  return crypto.createHmac('sha256', keyFrom(secret)).update(payload).digest('base64url');
}

export function unsubscribeToken(secret: string, grant: UnsubscribeGrant): string {
  const payload = `${KIND_CODE[grant.kind]}.${grant.id}.${grant.newsletter}`;
  return `${payload}.${signature(secret, payload)}`;
}

/** The grant a token carries; null when it is malformed or its signature does not match. */
export function readUnsubscribeToken(secret: string, token: unknown): UnsubscribeGrant | null {
  if (typeof token !== 'string' || token.length > 200) return null;
  const m = /^([mg])\.(\d{1,9})\.([a-z_]{2,40})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m) return null;
  const [, kind, id, newsletter, sent] = m;
  const expected = signature(secret, `${kind}.${id}.${newsletter}`);
  if (!crypto.timingSafeEqual(Buffer.from(sent), Buffer.from(expected))) return null;
  if (newsletter !== 'all' && !(NEWSLETTER_TYPES as string[]).includes(newsletter)) return null;
  return { kind: kind === 'm' ? 'member' : 'guest', id: Number(id), newsletter: newsletter as UnsubscribeGrant['newsletter'] };
}
