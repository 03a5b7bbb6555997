import { AGE_GATE_REMEMBER_DAYS, LEGAL_AGE_BY_PROVINCE } from './constants';

// The cannabis section's age gate (spec 2 §4, §9), shared by the server (the no-JavaScript
// gate page and its guard) and the age-gate island (the dialog over the gated page), so the
// cookie, the ages and the rule that reads the cookie are written once.

export const AGE_GATE_COOKIE = 'is_user_over_18';
export const AGE_GATE_PREFIX = '/cannabis';
/** The full gate page: what a browser without JavaScript is sent to. */
export const AGE_GATE_PATH = '/age-gate/';

/** 19 in most provinces, 21 in Quebec, 18 in Alberta. */
export function legalAge(province: string): number {
  return LEGAL_AGE_BY_PROVINCE[province.trim().toUpperCase()] ?? LEGAL_AGE_BY_PROVINCE.default;
}

/** 'pass' when accepted, 'home' when declined, 'ask' when there is no answer yet. */
export type AgeGateDecision = 'pass' | 'home' | 'ask';

export function ageGateDecision(cookie: string | undefined): AgeGateDecision {
  if (cookie === 'true') return 'pass';
  if (cookie === 'false') return 'home';
  return 'ask';
}

/** Max-age of a remembered answer, in seconds; without remember it lasts the browser session. */
export function ageGateMaxAgeSeconds(remember: boolean): number | undefined {
  return remember ? AGE_GATE_REMEMBER_DAYS * 24 * 3600 : undefined;
}
