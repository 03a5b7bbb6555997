import crypto from 'node:crypto';

// Calendar tokens are secrets of the member's Google account, so they are encrypted at rest:
// AES-256-GCM with a key derived (HKDF-SHA256) from SESSION_SECRET for this one purpose. A
// database dump alone gives nothing; rotating SESSION_SECRET makes members authorise again.

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export function deriveKey(secret: string, purpose: string): Buffer {
  return Buffer.from(crypto.hkdfSync('sha256', Buffer.from(secret, 'utf8'), Buffer.from('toronto-guide'), Buffer.from(purpose), 32));
}

export function createTokenCipher(secret: string) {
  const key = deriveKey(secret, 'calendar-credentials');
  return {
    encrypt(plain: string): string {
      const iv = crypto.randomBytes(IV_BYTES);
      const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
    },
    /** Throws when the value was altered or made with another secret. */
    decrypt(sealed: string): string {
      const [version, data] = sealed.split('.');
      if (version !== VERSION || !data) throw new Error('Unknown token format');
      const raw = Buffer.from(data, 'base64url');
      const decipher = crypto.createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    },
  };
}

export type TokenCipher = ReturnType<typeof createTokenCipher>;
