import { LIMITS, NEWSLETTER_COOKIE_DAYS, NEWSLETTERS } from './constants';

// The newsletter prompt (spec 2 §3, §4, §9): which newsletter a page prompts for, the cookie
// that closing it sets (one per newsletter type, 30 days), and the email check of §5.

export type PromptNewsletterType = 'news' | 'events' | 'foods' | 'real_estate' | 'travel' | 'promotions' | 'contests';

export interface NewsletterPromptInitialState {
  type: PromptNewsletterType;
}

/** `newsletter_prompt_closed_events`: one cookie per type, so closing one prompt leaves the others. */
export function promptCookieName(type: PromptNewsletterType): string {
  return `newsletter_prompt_closed_${type}`;
}

export const PROMPT_COOKIE_MAX_AGE_SECONDS = NEWSLETTER_COOKIE_DAYS * 24 * 3600;

/** The newsletter a type stands for (its name and schedule). */
export function newsletterOfType(type: PromptNewsletterType) {
  return NEWSLETTERS.find((n) => n.guestField === type) ?? NEWSLETTERS[0];
}

/** The guest fields of the newsletters a site offers (a feature off hides its newsletter). */
export function offeredGuestFields(flags: Record<string, boolean>): PromptNewsletterType[] {
  return NEWSLETTERS.filter((n) => !n.requires || flags[n.requires]).flatMap((n) => (n.guestField ? [n.guestField as PromptNewsletterType] : []));
}

/** Spec 2 §5: at most 255 characters and shaped like an address. */
export function looksLikeEmail(value: string): boolean {
  const v = value.trim();
  return v.length > 0 && v.length <= LIMITS.emailMax && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v);
}
