import { createRemoteJWKSet, jwtVerify, errors as joseErrors } from 'jose';
import type { Config } from '../../config';
import type { SocialIdentity } from './social';

// Sign in with Apple, "manual" flow: the browser gets an id_token from Apple's script and
// posts it here. The token is only trusted after its signature checks against Apple's
// published keys (fetched from the JWKS URL and cached), and its issuer, audience (our
// client id) and expiry are right.

export class AppleTokenError extends Error {}

export type AppleVerifier = (idToken: string) => Promise<SocialIdentity>;

export function createAppleVerifier(apple: Config['apple']): AppleVerifier | null {
  if (!apple.clientId) return null;
  const clientId = apple.clientId;
  const jwks = createRemoteJWKSet(new URL(apple.jwksUrl), { cacheMaxAge: 24 * 3600_000, cooldownDuration: 30_000, timeoutDuration: 5000 });
  return async (idToken) => {
    try {
      const { payload } = await jwtVerify(idToken, jwks, { issuer: apple.issuer, audience: clientId, algorithms: ['RS256', 'ES256'], clockTolerance: 30 });
      if (!payload.sub) throw new AppleTokenError('The token names no subject.');
      const email = typeof payload.email === 'string' ? payload.email : undefined;
      // Apple sends email_verified as the string "true" or as a boolean.
      const emailVerified = payload.email_verified === true || payload.email_verified === 'true';
      return { provider: 'apple_sub', id: payload.sub, email, emailVerified };
    } catch (err) {
      if (err instanceof AppleTokenError) throw err;
      if (err instanceof joseErrors.JOSEError) throw new AppleTokenError(err.code);
      throw err;
    }
  };
}
