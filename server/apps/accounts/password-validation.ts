import fs from 'node:fs';
import path from 'node:path';
import { LIMITS } from '../../../shared/constants';
import { ROOT } from '../../paths';

// Django's four default password validators, with Django's messages: minimum length, not
// entirely numeric, not a common password, not too similar to the email address. Each
// returns every problem at once so the member fixes them in one go.

export const passwordMessages = {
  tooShort: `This password is too short. It must contain at least ${LIMITS.passwordMin} characters.`,
  tooLong: `Ensure this field has no more than ${LIMITS.passwordMax} characters.`,
  numeric: 'This password is entirely numeric.',
  common: 'This password is too common.',
  similar: 'The password is too similar to the email address.',
} as const;

const MAX_SIMILARITY = 0.7;

let commonPasswords: Set<string> | null = null;

/** The ~1,400 most common passwords (lower case), read once. Read from the source tree, as
 *  the compiled server in dist/ carries only JavaScript. */
function common(): Set<string> {
  commonPasswords ??= new Set(
    fs
      .readFileSync(path.join(ROOT, 'server', 'apps', 'accounts', 'common-passwords.txt'), 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean),
  );
  return commonPasswords;
}

/** difflib.SequenceMatcher.quick_ratio: an upper bound on similarity from shared characters. */
function quickRatio(a: string, b: string): number {
  if (!a.length && !b.length) return 1;
  const counts = new Map<string, number>();
  for (const ch of b) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let matches = 0;
  for (const ch of a) {
    const n = counts.get(ch) ?? 0;
    if (n > 0) {
      matches += 1;
      counts.set(ch, n - 1);
    }
  }
  return (2 * matches) / (a.length + b.length);
}

/** As Django does: skip parts so short against a long password that they cannot matter. */
function exceedsMaximumLengthRatio(password: string, part: string): boolean {
  return password.length >= 10 * part.length && part.length < (MAX_SIMILARITY / 2) * password.length;
}

function tooSimilarToEmail(password: string, email: string): boolean {
  const value = email.toLowerCase();
  const pw = password.toLowerCase();
  const parts = [...value.split(/\W+/).filter(Boolean), value];
  return parts.some((part) => !exceedsMaximumLengthRatio(pw, part) && quickRatio(pw, part) >= MAX_SIMILARITY);
}

/** Every rule the password breaks, as messages; empty when it is acceptable. */
export function passwordProblems(password: string, email?: string): string[] {
  const problems: string[] = [];
  if (password.length > LIMITS.passwordMax) problems.push(passwordMessages.tooLong);
  if (password.length < LIMITS.passwordMin) problems.push(passwordMessages.tooShort);
  if (email && tooSimilarToEmail(password, email)) problems.push(passwordMessages.similar);
  if (common().has(password.trim().toLowerCase())) problems.push(passwordMessages.common);
  if (/^\d+$/.test(password)) problems.push(passwordMessages.numeric);
  return problems;
}
