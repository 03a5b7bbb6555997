import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { requireStaffPage } from '../../http/auth-guards';
import { staffMenu, type StaffSection } from '../../http/staff-menu';
import { idParam } from '../../http/validate';
import { page, PageRedirect, type PageView } from '../../http/pages/page-view';
import { pagesOrFirstPage, pageWindow } from '../../http/pages/page-param';
import { urls } from '../../../shared/urls';
import { recentStaffActions } from '../staff-audit/audit-log';
import { contestEntries, contestWinner, staffContest, staffContests } from './staff-queries';
import { drawAndEmailWinner, type DrawResult } from './draw';

// Staff pages for contests: every contest with its entry counts, one contest's entries, and
// "Draw a winner", in the staff area's layout and menu. Guests are sent to log in, members who
// are not staff get the 403 page (requireStaffPage, as every /staff/ page);
// the draw is a CSRF-checked form post (the global CSRF middleware) written to the audit log,
// and the winner is emailed after it commits (the page says whether the email went out).

const CONTESTS_PER_PAGE = 50;
const ENTRIES_PER_PAGE = 100;
const staffOnly = requireStaffPage;

/** The contests' section of the staff menu (the registry puts every app's in order). */
export const contestsStaffSection: StaffSection = { href: urls.staffContests(), title: 'Contest entries', text: 'Entries to contests, and drawing winners.' };

/** The notice after a draw (?drawn=1&mail=sent|failed); anything else shows none. */
const drawNoticeSchema = z.object({ drawn: z.literal('1'), mail: z.enum(['sent', 'failed']).optional() });

const DRAW_REFUSALS: Record<Exclude<DrawResult['outcome'], 'drawn' | 'not-found'>, string> = {
  'still-open': 'This contest is still open: draw a winner once it has closed.',
  'already-drawn': 'A winner has already been drawn. Tick “Draw again” to replace them (the redraw is logged).',
  'no-valid-entries': 'There are no valid entries to draw from.',
};

export function contestsStaffPages(ctx: AppContext): Router {
  const router = Router();
  // ## Staff: contests
  router.get('/staff/contests/', staffOnly, page('private', (req) => contestsList(ctx, req)));
  router.get('/staff/contests/:id/', staffOnly, page('private', (req) => contestDetail(ctx, req)));
  router.post('/staff/contests/:id/draw/', staffOnly, page('private', (req, res) => drawPost(ctx, req, res)));
  return router;
}

async function contestsList(ctx: AppContext, req: Request): Promise<PageView> {
  const { page: current, limit, offset } = pageWindow(req, CONTESTS_PER_PAGE);
  const { count, rows } = await staffContests(ctx.db, limit, offset);
  const pages = pagesOrFirstPage(req, current, count, CONTESTS_PER_PAGE);
  const now = ctx.now().getTime();
  return {
    template: 'contests/staff/index.njk',
    ...staffMenu(ctx, urls.staffContests()),
    contests: rows.map((c) => ({ ...c, open: new Date(c.start_date).getTime() <= now && now < new Date(c.end_date).getTime(), closed: now >= new Date(c.end_date).getTime() })),
    count,
    current,
    pages,
    pageTitle: 'Contests – Staff',
  };
}

async function contestDetail(ctx: AppContext, req: Request, extra: Record<string, unknown> = {}): Promise<PageView | null> {
  const id = idParam(req.params.id);
  const contest = await staffContest(ctx.db, id);
  if (!contest) return null;
  const { page: current, limit, offset } = pageWindow(req, ENTRIES_PER_PAGE);
  const pages = pagesOrFirstPage(req, current, contest.entries, ENTRIES_PER_PAGE);
  const [entries, winner, history] = await Promise.all([
    contestEntries(ctx.db, id, limit, offset),
    contestWinner(ctx.db, contest),
    recentStaffActions(ctx.db, { subjectType: 'contest', subjectId: id, limit: 20 }),
  ]);
  return {
    template: 'contests/staff/detail.njk',
    ...staffMenu(ctx, urls.staffContests()),
    contest,
    closed: ctx.now().getTime() >= new Date(contest.end_date).getTime(),
    entries,
    winner: winner ?? null,
    history,
    current,
    pages,
    drawNotice: drawNoticeSchema.safeParse(req.query).data ?? null,
    publicUrl: urls.contest(contest.name),
    pageTitle: `${contest.title} – Staff`,
    ...extra,
  };
}

/** POST /staff/contests/<id>/draw/ (redraw=on to replace a winner already drawn). */
async function drawPost(ctx: AppContext, req: Request, res: Response): Promise<PageView | PageRedirect | null> {
  const id = idParam(req.params.id);
  const body = (req.body ?? {}) as Record<string, unknown>;
  const actor = { id: req.user!.id, email: req.user!.email };
  const result = await drawAndEmailWinner(ctx, id, actor, { redraw: body.redraw === 'on', now: ctx.now() });
  if (result.outcome === 'not-found') return null;
  if (result.outcome === 'drawn') return new PageRedirect(`${urls.staffContest(id)}?drawn=1&mail=${result.mail}`, 303);
  res.status(409);
  return contestDetail(ctx, req, { refusal: DRAW_REFUSALS[result.outcome] });
}
