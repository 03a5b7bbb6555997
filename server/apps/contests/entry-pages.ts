import type { Request, Response } from 'express';
import moment from 'moment-timezone';
import type { AppContext } from '../../context';
import { ValidationError, type FieldErrors } from '../../http/errors';
import { PageRedirect, type PageView } from '../../http/pages/page-view';
import { absolute } from '../../http/pages/canonical-url';
import { urls } from '../../../shared/urls';
import { publishedContest, type ContestPageRow } from './page-queries';
import { toContestDTO } from './serialize';
import { checkedSkillAnswer, enterContest, entryWindow, memberEntry } from './entries';

// The entry form's own page, /contests/<name>/enter/. The contest page is the same HTML for
// everyone (shared caches keep it), so its form carries no CSRF token: without JavaScript it
// comes here by GET (the answer typed so far filled in) and is sent from this private page;
// with JavaScript (static/js/contest-entry.js) it posts here straight away. Either way the
// post answers with a redirect back to this page (entered) or this page with the reason.

/** As the templates print entry dates: 'December 1, 2026 at 11:59 pm EST'. */
const ENTRY_DATE_FORMAT = 'MMMM D, YYYY [at] h:mm a z';

type Notice = { kind: 'success' | 'error'; text: string };

function loginUrl(contest: ContestPageRow): string {
  return `/accounts/login?next=${encodeURIComponent(urls.contestEnter(contest.name))}`;
}

function enterView(ctx: AppContext, req: Request, contest: ContestPageRow, data: { entered?: Date; values?: Record<string, string>; errors?: FieldErrors; notice?: Notice }): PageView {
  const now = ctx.now();
  return {
    template: 'contests/enter.njk',
    contest,
    dto: toContestDTO(contest, '', now),
    window: entryWindow(contest, now),
    member: Boolean(req.user),
    loginUrl: loginUrl(contest),
    entered: data.entered ?? null,
    values: data.values ?? {},
    errors: data.errors ?? {},
    notice: data.notice ?? null,
    pageTitle: `Enter: ${contest.title}`,
    pageDescription: `Enter ${contest.title}.`,
    canonicalUrl: absolute(ctx, urls.contestEnter(contest.name)),
  };
}

function windowNotice(contest: ContestPageRow, window: 'not-started' | 'closed', timeZone: string): Notice {
  const when = (d: Date | string) => moment.tz(d, timeZone).format(ENTRY_DATE_FORMAT);
  return window === 'closed'
    ? { kind: 'error', text: `This contest closed on ${when(contest.end_date)}: entries are no longer accepted.` }
    : { kind: 'error', text: `This contest opens for entries on ${when(contest.start_date)}. Come back then.` };
}

/** GET /contests/<name>/enter/: the form, the member's entry if they have one, or the login link. */
export async function entryFormPage(ctx: AppContext, req: Request): Promise<PageView | null> {
  const contest = await publishedContest(ctx.db, String(req.params.name), ctx.now());
  if (!contest) return null;
  const entry = req.user ? await memberEntry(ctx.db, contest.id, req.user.id) : undefined;
  const answer = (req.query as Record<string, unknown>).skill_answer;
  return enterView(ctx, req, contest, { entered: entry?.created_at, values: typeof answer === 'string' ? { skill_answer: answer.slice(0, 20) } : {} });
}

/** POST /contests/<name>/enter/ (csrfmiddlewaretoken, skill_answer when the contest asks). */
export async function submitEntry(ctx: AppContext, req: Request, res: Response): Promise<PageView | PageRedirect | null> {
  const now = ctx.now();
  const contest = await publishedContest(ctx.db, String(req.params.name), now);
  if (!contest) return null;
  if (!req.user) return new PageRedirect(loginUrl(contest), 303);
  const body = (req.body ?? {}) as Record<string, unknown>;
  const values: Record<string, string> = typeof body.skill_answer === 'string' ? { skill_answer: body.skill_answer.slice(0, 20) } : {};
  const window = entryWindow(contest, now);
  if (window !== 'open') {
    res.status(403);
    return enterView(ctx, req, contest, { notice: windowNotice(contest, window, ctx.config.city.timeZone) });
  }
  const existing = await memberEntry(ctx.db, contest.id, req.user.id);
  if (existing) return alreadyEntered(ctx, req, res, contest, existing.created_at);
  let answer: number | null;
  try {
    answer = checkedSkillAnswer(contest, body);
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    res.status(400);
    return enterView(ctx, req, contest, { values, errors: err.fields });
  }
  const result = await enterContest(ctx.db, contest, req.user.id, answer, now);
  if (result.outcome === 'entered') return new PageRedirect(urls.contestEnter(contest.name), 303);
  if (result.outcome === 'already-entered') return alreadyEntered(ctx, req, res, contest, result.enteredAt);
  res.status(403);
  return enterView(ctx, req, contest, { notice: windowNotice(contest, result.outcome, ctx.config.city.timeZone) });
}

function alreadyEntered(ctx: AppContext, req: Request, res: Response, contest: ContestPageRow, enteredAt: Date): PageView {
  res.status(409);
  return enterView(ctx, req, contest, { entered: enteredAt, notice: { kind: 'error', text: 'You have already entered this contest: there is one entry per member.' } });
}
