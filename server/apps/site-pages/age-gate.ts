import type { Request, Response } from 'express';
import { z } from 'zod';
import type { Config } from '../../config';
import { addIsland } from '../../views';
import { AGE_GATE_COOKIE, AGE_GATE_PATH, AGE_GATE_PREFIX, ageGateDecision, ageGateMaxAgeSeconds, legalAge } from '../../../shared/age-gate';
import { safeNextPath } from '../../http/safe-redirect';
import { validate } from '../../http/validate';
import { PageRedirect, type PageAnswer, type PageView } from '../../http/pages/page-view';

// The age gate of the cannabis section (spec 2 §4, §9). The cookie is_user_over_18 decides:
// 'true' lets the reader in, 'false' sends them home, absent puts the gate in front. With
// JavaScript the gate is a dialog over the page (islands/age-gate); the page then carries
// the island and a <noscript> refresh to the full gate page, a plain form that works without
// JavaScript. Both pages are the same for every reader who has not answered, so they stay
// shareable by caches. Remembering keeps the answer 30 days; otherwise it lasts for the
// browser session.

export { AGE_GATE_COOKIE, AGE_GATE_PREFIX, legalAge };

/** What base.njk prints for a gated page seen by a reader with no answer yet. */
export interface AgeGateLocals {
  legalAge: number;
  /** The full gate page for this path: where a browser without JavaScript goes. */
  fallbackUrl: string;
}

/** Guards every path under /cannabis: null lets the request through to the content (with the gate over it when unanswered). */
export function ageGateGuard(config: Config, req: Request, res: Response): PageAnswer {
  const decision = ageGateDecision(req.cookies?.[AGE_GATE_COOKIE]);
  res.vary('Cookie');
  if (decision === 'home') return new PageRedirect('/', 302);
  if (decision === 'ask') {
    res.set('X-Robots-Tag', 'noindex');
    const age = legalAge(config.city.province);
    const next = safeNextPath(req.originalUrl, `${AGE_GATE_PREFIX}/`);
    res.locals.ageGate = { legalAge: age, fallbackUrl: `${AGE_GATE_PATH}?next=${encodeURIComponent(next)}` } satisfies AgeGateLocals;
    addIsland(res, 'age-gate', { legalAge: age });
  }
  return null;
}

const nextQuery = z.object({ next: z.string().max(2000, 'Ensure this field has no more than 2000 characters.').optional() });

/** GET /age-gate/?next=: the full gate page (the no-JavaScript gate); an answered reader goes on. */
export function ageGatePage(config: Config, req: Request): PageView | PageRedirect {
  const { next: asked } = validate(nextQuery, req.query);
  const next = safeNextPath(asked, `${AGE_GATE_PREFIX}/`);
  const decision = ageGateDecision(req.cookies?.[AGE_GATE_COOKIE]);
  if (decision === 'home') return new PageRedirect('/', 302);
  if (decision === 'pass') return new PageRedirect(next, 302);
  return {
    template: 'site-pages/age-gate.njk',
    pageTitle: 'Are you of legal age?',
    legalAge: legalAge(config.city.province),
    next,
  };
}

const answerSchema = z.object({
  answer: z.enum(['yes', 'no'], { message: 'Choose yes or no.' }),
  remember: z.string().optional(),
  next: z.string().max(2000).optional(),
});

/** POST /age-gate/: stores the answer and goes on (yes) or home (no). */
export function answerAgeGate(config: Config) {
  return function storeAgeGateAnswer(req: Request, res: Response): void {
    const { answer, remember, next } = validate(answerSchema, req.body);
    const maxAge = ageGateMaxAgeSeconds(Boolean(remember));
    res.cookie(AGE_GATE_COOKIE, answer === 'yes' ? 'true' : 'false', { sameSite: 'lax', secure: config.isProduction, httpOnly: false, path: '/', ...(maxAge ? { maxAge: maxAge * 1000 } : {}) });
    res.redirect(303, answer === 'yes' ? safeNextPath(next, `${AGE_GATE_PREFIX}/`) : '/');
  };
}
