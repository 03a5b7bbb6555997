import crypto from 'node:crypto';
import type { Db } from '../../db';
import { spendCaptchaKey } from './used-captcha-key-queries';

// A captcha made on the server, no third-party service: an SVG image of a small sum, and a
// key that carries its expiry and an HMAC of the answer (never the answer itself). The
// answer is checked by recomputing the HMAC, so nothing is stored between the two requests.
//
// The key also records when it was issued: a form sent back within MIN_SOLVE_MS was filled in
// by a script (spec 2 §5's "time input"). A key answered correctly is spent: the database
// remembers it until it expires (used-captcha-key-queries.ts), so no process of the deployment
// accepts it again.
// Accessibility: the image's alt text asks the same question in words, so screen-reader users
// can answer it (at the cost of being readable by a determined bot; the rate limit and the
// timing check still apply).

export const CAPTCHA_TTL_MS = 30 * 60 * 1000;
export const MIN_SOLVE_MS = 2000;

const WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];

export interface Captcha {
  /** data: URL of the SVG image */
  image: string;
  key: string;
  /** The question in words, for the image's alt text. */
  alt: string;
}

export type CaptchaResult = 'ok' | 'wrong' | 'expired' | 'too-fast' | 'invalid' | 'used';

function sign(secret: string, issuedAt: number, nonce: string, answer: string): string {
  return crypto.createHmac('sha256', secret).update(`captcha:${issuedAt}:${nonce}:${answer.trim().toLowerCase()}`).digest('base64url');
}

function svgFor(text: string, rand: () => number): string {
  const chars = [...text];
  const glyphs = chars
    .map((c, i) => {
      const x = 14 + i * 19;
      const y = 34 + Math.round((rand() - 0.5) * 8);
      const rotate = Math.round((rand() - 0.5) * 30);
      return `<text x="${x}" y="${y}" transform="rotate(${rotate} ${x} ${y})">${c === '+' ? '+' : c}</text>`;
    })
    .join('');
  const noise = Array.from({ length: 5 }, () => {
    const [x1, y1, x2, y2] = [rand() * 200, rand() * 50, rand() * 200, rand() * 50].map((n) => n.toFixed(1));
    return `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}"/>`;
  }).join('');
  const width = 28 + chars.length * 19;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="50" viewBox="0 0 ${width} 50">` +
    `<rect width="100%" height="100%" fill="#f4f2ef"/>` +
    `<g stroke="#9c0c23" stroke-width="1.2" opacity="0.55">${noise}</g>` +
    `<g font-family="Georgia, serif" font-size="28" font-weight="700" fill="#1a1a1a">${glyphs}</g></svg>`
  );
}

export function createCaptcha(secret: string, now: Date, random: () => number = Math.random): Captcha {
  const a = 1 + Math.floor(random() * 9);
  const b = 1 + Math.floor(random() * 9);
  const answer = String(a + b);
  const issuedAt = now.getTime();
  const nonce = crypto.randomBytes(9).toString('base64url');
  const key = `${issuedAt}.${nonce}.${sign(secret, issuedAt, nonce, answer)}`;
  const svg = svgFor(`${a} + ${b} =`, random);
  return {
    image: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
    key,
    alt: `What is ${WORDS[a]} plus ${WORDS[b]}?`,
  };
}

/** Checks a key and its answer: signature, age and solving time (not whether it was used before). */
export function checkCaptcha(secret: string, key: unknown, answer: unknown, now: Date): Exclude<CaptchaResult, 'used'> {
  if (typeof key !== 'string' || typeof answer !== 'string') return 'invalid';
  const m = /^(\d{10,15})\.([A-Za-z0-9_-]{12})\.([A-Za-z0-9_-]{43})$/.exec(key);
  if (!m) return 'invalid';
  const issuedAt = Number(m[1]);
  const t = now.getTime();
  if (t - issuedAt > CAPTCHA_TTL_MS || issuedAt > t + 60_000) return 'expired';
  const expected = Buffer.from(sign(secret, issuedAt, m[2], answer));
  const given = Buffer.from(m[3]);
  if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) return 'wrong';
  if (t - issuedAt < MIN_SOLVE_MS) return 'too-fast';
  return 'ok';
}

/** Checks a key and its answer, and spends the key when they are right: a second use is 'used'. */
export async function verifyCaptcha(db: Db, secret: string, key: unknown, answer: unknown, now: Date): Promise<CaptchaResult> {
  const result = checkCaptcha(secret, key, answer, now);
  if (result !== 'ok') return result;
  const issuedAt = Number((key as string).split('.')[0]);
  return (await spendCaptchaKey(db, key as string, new Date(issuedAt + CAPTCHA_TTL_MS), now)) ? 'ok' : 'used';
}

/** A secret of its own for the captcha, derived from the session secret. */
export function captchaSecret(sessionSecret: string): string {
  return crypto.createHmac('sha256', sessionSecret).update('contact-captcha').digest('base64url');
}
