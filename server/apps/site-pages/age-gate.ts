import type { Request, Response } from 'express';
import { z } from 'zod';
import type { Config } from '../../config';
import { AGE_GATE_REMEMBER_DAYS, LEGAL_AGE_BY_PROVINCE } from '../../../shared/constants';
import { safeNextPath } from '../../http/safe-redirect';
import { validate } from '../../http/validate';
import { PageRedirect, type PageAnswer } from '../../http/pages/page-view';

// The age gate of the cannabis section (spec 2 §4, §9). The cookie is_user_over_18 decides:
// 'true' lets the reader in, 'false' sends them home, absent shows the gate — a plain form
// that works without JavaScript. Remembering keeps the answer 30 days; otherwise it lasts
// for the browser session.

export const AGE_GATE_COOKIE = 'is_user_over_18';
export const AGE_GATE_PREFIX = '/cannabis';

export function legalAge(province: string): number {
  return LEGAL_AGE_BY_PROVINCE[province.toUpperCase()] ?? LEGAL_AGE_BY_PROVINCE.default;
}

/** Guards every path under /cannabis: the gate page instead of the content until accepted (null lets the reader through). */
export function ageGatePage(config: Config, req: Request, res: Response): PageAnswer {
  const answer = req.cookies?.[AGE_GATE_COOKIE];
  if (answer === 'true') {
    res.vary('Cookie');
    return null;
  }
  if (answer === 'false') return new PageRedirect('/', 302);
  res.set('X-Robots-Tag', 'noindex');
  return {
    template: 'site-pages/age-gate.njk',
    pageTitle: 'Are you of legal age?',
    legalAge: legalAge(config.city.province),
    next: safeNextPath(req.originalUrl, `${AGE_GATE_PREFIX}/`),
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
    const maxAge = remember ? AGE_GATE_REMEMBER_DAYS * 24 * 3600 * 1000 : undefined;
    res.cookie(AGE_GATE_COOKIE, answer === 'yes' ? 'true' : 'false', { sameSite: 'lax', secure: config.isProduction, httpOnly: false, path: '/', ...(maxAge ? { maxAge } : {}) });
    res.redirect(303, answer === 'yes' ? safeNextPath(next, `${AGE_GATE_PREFIX}/`) : '/');
  };
}
