import moment from 'moment-timezone';
import type { AppContext } from '../../context';
import type { FieldErrors } from '../../http/errors';
import { PageRedirect, type PageView, page } from '../../http/pages/page-view';
import { formPost } from '../../http/pages/form-post';
import { absolute, queryString } from '../../http/pages/canonical-url';
import { urls } from '../../../shared/urls';
import { movedContestName, publishedContest, type ContestPageRow, listContests } from './queries';
import type { Db } from '../../db';
import { toContestDTO } from './serialize';
import { checkedSkillAnswer, enterContest, entryWindow, memberEntry } from './entry-queries';
import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import { requireStaffPage } from '../../http/auth-guards';
import { staffMenu, type StaffSection } from '../../http/staff-menu';
import { idParam } from '../../http/validate';
import { pagesOrFirstPage, pageWindow, offsetParam } from '../../http/pages/page-param';
import { recentStaffActions } from '../staff-audit/audit-log-queries';
import { contestEntries, contestWinner, staffContest, staffContests } from './staff-queries';
import { drawAndEmailWinner, type DrawResult } from './draw-queries';
import { PAGE_SIZE } from '../../../shared/constants';
import { whenFlag } from '../../http/pages/feature-gate';
import type { RequestRules } from '../../http/request-rules';
import { checkFirstFieldToken } from '../../http/csrf';
import { textFieldsOf, validate } from '../../http/validate';
import { addSurrogateKeys, contestKeys, surrogateKeys } from '../../http/surrogate-keys';
import { imageUrl } from '../../../shared/format/image-url';
import { staffActorOf } from '../staff-audit/audit-log-queries';
import { uploadBodySlot } from '../media/image-work';
import { imageUploadParser, type ImageUploadService } from '../uploads/service';
import { uploadFormRefusal } from '../uploads/form-refusal';
import { editableContest, saveContest, type EditableContest } from './edit-queries';
import { contestFormSchema, NAME_MAX, QUESTION_MAX, TEXT_MAX, TITLE_MAX } from './schemas';

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
export async function entryFormPage(ctx: AppContext, req: Request): Promise<PageView | PageRedirect | null> {
  const contest = await publishedContest(ctx.db, String(req.params.name), ctx.now());
  if (!contest) return movedContest(ctx.db, req, ctx.now(), urls.contestEnter);
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
  const member = req.user;
  return formPost(res, {
    // The answer is checked against the contest's own, so the ValidationError comes from `valid`.
    valid: async () => {
      const answer = checkedSkillAnswer(contest, body);
      const result = await enterContest(ctx.db, contest, member.id, answer, now);
      if (result.outcome === 'entered') return new PageRedirect(urls.contestEnter(contest.name), 303);
      if (result.outcome === 'already-entered') return alreadyEntered(ctx, req, res, contest, result.enteredAt);
      res.status(403);
      return enterView(ctx, req, contest, { notice: windowNotice(contest, result.outcome, ctx.config.city.timeZone) });
    },
    invalid: (errors) => enterView(ctx, req, contest, { values, errors }),
  });
}

function alreadyEntered(ctx: AppContext, req: Request, res: Response, contest: ContestPageRow, enteredAt: Date): PageView {
  res.status(409);
  return enterView(ctx, req, contest, { entered: enteredAt, notice: { kind: 'error', text: 'You have already entered this contest: there is one entry per member.' } });
}

// Staff pages for contests: every contest with its entry counts, one contest's entries, and
// "Draw a winner", in the staff area's layout and menu. Guests are sent to log in, members who
// are not staff get the 403 page (requireStaffPage, as every /staff/ page);
// the draw is a CSRF-checked form post (the global CSRF middleware) written to the audit log,
// and the winner is emailed after it commits (the page says whether the email went out).

const CONTESTS_PER_PAGE = 50;
const ENTRIES_PER_PAGE = 100;
const staffOnly = requireStaffPage;

/** The contests' section of the staff menu (the registry puts every app's in order). */
export const contestsStaffSection: StaffSection = { href: urls.staffContests(), title: 'Contests', text: 'Add and edit contests (dates, prize, rules, odds, the skill-testing question), their entries, and drawing winners.' };

/** The notice after a draw (?drawn=1&mail=sent|failed); anything else shows none. */
const drawNoticeSchema = z.object({ drawn: z.literal('1'), mail: z.enum(['sent', 'failed']).optional() });

const DRAW_REFUSALS: Record<Exclude<DrawResult['outcome'], 'drawn' | 'not-found'>, string> = {
  'still-open': 'This contest is still open: draw a winner once it has closed.',
  'already-drawn': 'A winner has already been drawn. Tick “Draw again” to replace them (the redraw is logged).',
  'no-valid-entries': 'There are no valid entries to draw from.',
};

export function contestsStaffPages(ctx: AppContext, uploads: ImageUploadService): Router {
  const router = Router();
  // ## Staff: contests
  router.get('/staff/contests/', staffOnly, page('private', (req) => contestsList(ctx, req)));
  router.get('/staff/contests/new/', staffOnly, page('private', () => contestForm(ctx, { contest: null, values: {}, errors: null })));
  router.get('/staff/contests/:id/edit/', staffOnly, page('private', async (req) => {
    const contest = await editableContest(ctx.db, idParam(req.params.id));
    return contest ? contestForm(ctx, { contest, values: contestValues(contest, ctx.config.city.timeZone), errors: null }) : null;
  }));
  router.post(CONTEST_FORM_PATH, staffOnly, uploadBodySlot, imageUploadParser, checkFirstFieldToken, page('private', (req, res) => contestSavePost(ctx, uploads, req, res)));
  router.get('/staff/contests/:id/', staffOnly, page('private', (req) => contestDetail(ctx, req)));
  router.post('/staff/contests/:id/draw/', staffOnly, page('private', (req, res) => drawPost(ctx, req, res)));
  return router;
}

// The contest form (/staff/contests/new/, /staff/contests/<id>/edit/): the contests table's
// fields (dates, prize, rules, odds, the skill-testing question and its answer, which is the
// entry form's one field) and an optional image through the upload pipeline. A new contest is
// published at once (it opens for entries at its start date). Plain multipart form, token
// first; 303 after a save; a refused form back 400 with the message beside its field and what
// was typed; the contest and its audit entry in one transaction; its pages purged after.

/** One path for adding and changing (the id field says which): a multipart form's token check is by exact path. */
export const CONTEST_FORM_PATH = '/staff/contests/save/';
/** The contest form posts its image without JavaScript: its token is the multipart body's first field. */
export const contestsRequestRules: Partial<RequestRules> = { multipartFirstField: [CONTEST_FORM_PATH] };
const CONTEST_IMAGE_FIELD = 'image';
const CONTEST_IMAGE_BOX = { box_width: 600, box_height: 400, cropping_mode: 'aspect-fill' as const };
const LOCAL_INPUT = 'YYYY-MM-DDTHH:mm';

/** A contest as the form shows it: its dates in the city's wall-clock time. */
function contestValues(c: EditableContest, timeZone: string): Record<string, string> {
  return {
    title: c.title, name: c.name, description: c.description, prize: c.prize, rules: c.rules, odds: c.odds,
    start_date: moment.tz(c.start_date, timeZone).format(LOCAL_INPUT), end_date: moment.tz(c.end_date, timeZone).format(LOCAL_INPUT),
    skill_question: c.skill_question ?? '', skill_answer: c.skill_answer === null ? '' : String(c.skill_answer),
  };
}

function contestForm(ctx: AppContext, { contest, values, errors }: { contest: EditableContest | null; values: Record<string, unknown>; errors: FieldErrors | null }): PageView {
  return {
    template: 'contests/staff/form.njk',
    ...staffMenu(ctx, urls.staffContests()),
    contest,
    values,
    errors,
    imageUrl: contest?.image_key ? imageUrl(contest.image_key) : null,
    publicUrl: contest ? urls.contest(contest.name) : null,
    formPath: CONTEST_FORM_PATH,
    imageField: CONTEST_IMAGE_FIELD,
    timeZone: ctx.config.city.timeZone,
    limits: { title: TITLE_MAX, name: NAME_MAX, text: TEXT_MAX, question: QUESTION_MAX },
    pageTitle: contest ? `Edit ${contest.title} – Staff` : 'New contest – Staff',
  };
}

async function contestSavePost(ctx: AppContext, uploads: ImageUploadService, req: Request, res: Response): Promise<PageView | PageRedirect | null> {
  const values = textFieldsOf(req.body);
  const id = typeof values.id === 'string' && values.id ? idParam(values.id) : null;
  const existing = id === null ? null : ((await editableContest(ctx.db, id)) ?? null);
  if (id !== null && !existing) return null;
  try {
    const form = validate(contestFormSchema(ctx.config.city.timeZone), values);
    const actor = staffActorOf(req);
    const file = ((req.files as Express.Multer.File[] | undefined) ?? []).find((f) => f.fieldname === CONTEST_IMAGE_FIELD);
    const image = file ? await uploads.store(actor.id, file, CONTEST_IMAGE_BOX) : null;
    const { id: _id, ...fields } = form;
    const saved = await saveContest(ctx.db, { actor, now: ctx.now() }, id, { ...fields, image_key: image?.key });
    // After the commit: its pages (under the old name too), the hub; the home lists current contests.
    const names = new Set([form.name, ...(saved.before ? [saved.before] : [])]);
    const paths = ['/contests/', '/', ...[...names].flatMap((n) => [urls.contest(n), urls.contestRules(n)])];
    await ctx.changes.announce({ subject: `contest:${saved.id}`, paths, keys: contestKeys(saved.id) });
    return new PageRedirect(`${urls.staffContest(saved.id)}?saved=1`, 303);
  } catch (err) {
    const refusal = uploadFormRefusal(ctx, req, err, CONTEST_IMAGE_FIELD);
    if (!refusal) throw err;
    res.status(refusal.status);
    return contestForm(ctx, { contest: existing, values, errors: refusal.errors });
  }
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
    saved: req.query.saved === '1',
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

// The contests hub (newest first, 'Load more' as a plain ?offset= link) and each contest.

/**
 * CASE: a contest page's address under a name the contest had before staff changed it: a 301
 * to the same page under its name now (none: the 404). The entry form's post is not moved: a
 * 301 would turn it into a GET.
 */
async function movedContest(db: Db, req: Request, now: Date, pageOf: (name: string) => string): Promise<PageRedirect | null> {
  const moved = await movedContestName(db, String(req.params.name), now);
  return moved ? new PageRedirect(pageOf(moved) + queryString(req), 301) : null;
}

export function contestsPages(ctx: AppContext): Router {
  const router = Router();
  const on = whenFlag(ctx, 'contests');
  const shared = 'shared-for-guests';

  // ## Contests
  router.get('/contests/', on, page(shared, (req, res) => contestsHub(ctx, req, res)));
  router.get('/contests/:name/', on, page(shared, (req, res) => contestPage(ctx, req, res)));
  router.get('/contests/:name/rules/', on, page(shared, (req, res) => rulesPage(ctx, req, res)));
  // The entry form: private (its CSRF token); see entryFormPage above for why it has its own page.
  router.get('/contests/:name/enter/', on, page('private', (req) => entryFormPage(ctx, req)));
  router.post('/contests/:name/enter/', on, page('private', (req, res) => submitEntry(ctx, req, res)));

  return router;
}

async function contestsHub(ctx: AppContext, req: Request, res: Response): Promise<PageView> {
  const offset = offsetParam(req);
  const limit = PAGE_SIZE.contests;
  const now = ctx.now();
  const result = await listContests(ctx.dbRead, { limit, offset, ordering: '-date_published' }, { siteUrl: '', now });
  // Dropped at the edge when staff add or change a contest (contestKeys).
  addSurrogateKeys(res, [surrogateKeys.contests]);
  return {
    template: 'contests/index.njk',
    contests: result.results,
    count: result.count,
    offset,
    nextOffset: offset + limit < result.count ? offset + limit : null,
    previousOffset: offset > 0 ? Math.max(0, offset - limit) : null,
    pageTitle: `Contests in ${ctx.config.city.name}`,
    pageDescription: `Win tickets, dinners and more from ${ctx.config.site.name}.`,
    canonicalUrl: absolute(ctx, '/contests/') + (offset ? `?offset=${offset}` : ''),
  };
}

async function contestPage(ctx: AppContext, req: Request, res: Response): Promise<PageView | PageRedirect | null> {
  const now = ctx.now();
  const contest = await publishedContest(ctx.dbRead, String(req.params.name), now);
  if (!contest) return movedContest(ctx.dbRead, req, now, urls.contest);
  addSurrogateKeys(res, [surrogateKeys.contest(contest.id)]);
  return {
    template: 'contests/detail.njk',
    contest,
    dto: toContestDTO(contest, '', now),
    // The same for every visitor at a given time: the page stays shareable by caches.
    window: entryWindow(contest, now),
    pageTitle: contest.title,
    pageDescription: contest.description.slice(0, 200) || contest.title,
    canonicalUrl: absolute(ctx, urls.contest(contest.name)),
  };
}

/** The contest's rules with the disclosure every contest carries (no purchase, odds, question). */
async function rulesPage(ctx: AppContext, req: Request, res: Response): Promise<PageView | PageRedirect | null> {
  const now = ctx.now();
  const contest = await publishedContest(ctx.db, String(req.params.name), now);
  if (!contest) return movedContest(ctx.db, req, now, urls.contestRules);
  addSurrogateKeys(res, [surrogateKeys.contest(contest.id)]);
  return {
    template: 'contests/rules.njk',
    contest,
    dto: toContestDTO(contest, '', now),
    pageTitle: `Official rules: ${contest.title}`,
    pageDescription: `The official rules, odds and eligibility of ${contest.title}.`,
    canonicalUrl: absolute(ctx, urls.contestRules(contest.name)),
  };
}
