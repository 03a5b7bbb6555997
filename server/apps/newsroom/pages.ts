import { Router, type Request } from 'express';
import type { AppContext } from '../../context';
import { requireNewsroomPage } from '../../http/auth-guards';
import { NotFoundError, PermissionDeniedError, ValidationError } from '../../http/errors';
import { staffMenu, type StaffSection } from '../../http/staff-menu';
import { page, PageRedirect, type PageView } from '../../http/pages/page-view';
import { pagesOrFirstPage, pageWindow } from '../../http/pages/page-param';
import { formPost } from '../../http/pages/form-post';
import { formBodyOf, idParam, validate } from '../../http/validate';
import { addIsland } from '../../views';
import { NEWSROOM_ROLES, ROLE_LABELS, roleAtLeast, STORY_STATUSES, STORY_STATUS_LABELS } from '../../../shared/newsroom';
import { renderStoryDoc } from '../articles/story-render';
import { articleDetailView } from '../articles/pages';
import type { ArticleDetailRow } from '../articles/queries';
import { recordStaffAction } from '../staff-audit/audit-log-queries';
import { newsroomActorOf } from './api';
import type { NewsroomService } from './service';
import { articleTypes, listStories, memberByEmail, newsroomStaff, setNewsroomRole } from './queries';
import { workingFields, workingValues } from './serialize';
import { roleFormSchema, storyListQuerySchema } from './schemas';

// The newsroom's pages: the story list, the editor (the story-editor island, on staff pages
// only), the administrators' roles page, and preview links. Private pages, never cached.

const STORIES = '/staff/stories/';
const PER_PAGE = 30;

/** The newsroom's section of the staff menu. */
export const newsroomStaffSection: StaffSection = {
  href: STORIES,
  title: 'Stories',
  text: 'Write, schedule and publish stories; drafts, reviews and what is scheduled.',
};

export function newsroomPages(ctx: AppContext, newsroom: NewsroomService): Router {
  const router = Router();
  const view = (template: string, req: Request, data: Record<string, unknown>): PageView => ({ template, ...staffMenu(ctx, STORIES), ...data, me: req.user });

  router.get(STORIES, requireNewsroomPage, page('private', async (req) => {
    const q = validate(storyListQuerySchema.omit({ limit: true, offset: true }), req.query);
    const { page: n, limit, offset } = pageWindow(req, PER_PAGE);
    const [{ count, rows }, types] = await Promise.all([listStories(ctx.db, { status: q.status, typeId: q.type, authorId: q.author, q: q.q, limit, offset }), articleTypes(ctx.db)]);
    const pages = pagesOrFirstPage(req, n, count, PER_PAGE);
    return view('newsroom/stories.njk', req, {
      pageTitle: 'Stories',
      stories: rows.map((r) => ({ ...r, statusLabel: STORY_STATUS_LABELS[r.status], title: String(workingValues(r).name || 'Untitled'), hasPending: r.status === 'published' && Object.keys(r.pending).length > 0 })),
      count,
      page: n,
      pages,
      filter: q,
      types,
      statuses: STORY_STATUSES.map((s) => ({ value: s, label: STORY_STATUS_LABELS[s] })),
      timeZone: ctx.config.city.timeZone,
    });
  }));

  const editorPage = async (req: Request, res: Parameters<Parameters<typeof page>[1]>[1], id: number | null): Promise<PageView> => {
    const actor = newsroomActorOf(req);
    const [story, types] = await Promise.all([id === null ? Promise.resolve(null) : newsroom.get(actor, id), articleTypes(ctx.db)]);
    addIsland(res, 'story-editor', { story, types: types.map((t) => ({ id: t.id, name: t.name })), me: { id: actor.id, name: actor.name, role: actor.role } });
    return view('newsroom/editor.njk', req, { pageTitle: story ? `Edit: ${story.fields.name || 'Untitled'}` : 'New story', story, stylesheet: 'staff-editor' });
  };
  router.get(`${STORIES}new/`, requireNewsroomPage, page('private', (req, res) => editorPage(req, res, null)));
  router.get(`${STORIES}:id/`, requireNewsroomPage, page('private', (req, res) => editorPage(req, res, idParam(req.params.id))));

  // ## Roles (administrators)
  const rolesPage = async (req: Request, errors: Record<string, string[]> | null = null, values: Record<string, unknown> = {}): Promise<PageView> => {
    if (!roleAtLeast(req.user?.newsroom_role, 'administrator')) throw new PermissionDeniedError('Only an administrator sets roles.');
    return view('newsroom/roles.njk', req, {
      pageTitle: 'Newsroom roles',
      staff: (await newsroomStaff(ctx.db)).map((s) => ({ ...s, roleLabel: ROLE_LABELS[s.newsroom_role as keyof typeof ROLE_LABELS] })),
      roles: NEWSROOM_ROLES.map((r) => ({ value: r, label: ROLE_LABELS[r] })),
      errors,
      values,
      done: typeof req.query.done === 'string' ? req.query.done : null,
    });
  };
  router.get('/staff/roles/', requireNewsroomPage, page('private', (req) => rolesPage(req)));
  router.post('/staff/roles/', requireNewsroomPage, page('private', async (req, res) => {
    if (!roleAtLeast(req.user?.newsroom_role, 'administrator')) throw new PermissionDeniedError('Only an administrator sets roles.');
    return formPost(res, {
      schema: roleFormSchema,
      body: formBodyOf(req.body),
      valid: async (form) => {
        const member = await memberByEmail(ctx.db, form.email);
        if (!member) throw ValidationError.field('email', 'No member has this email address.');
        if (member.id === req.user!.id && form.role !== 'administrator') throw ValidationError.field('role', 'You cannot take away your own administrator role.');
        const role = form.role === 'none' ? null : form.role;
        await ctx.db.transaction(async (trx) => {
          await setNewsroomRole(trx, member.id, role);
          await recordStaffAction(trx, newsroomActorOf(req), { action: 'role.set', subjectType: 'member', subjectId: member.id, detail: { email: member.email, from: member.newsroom_role, to: role } });
        });
        return new PageRedirect(`/staff/roles/?done=${encodeURIComponent(form.email)}`, 303);
      },
      invalid: (errors, values) => rolesPage(req, errors, values),
    });
  }));

  // ## Preview links: the public page of the working copy, for whoever has the link until it expires.
  router.get('/preview/:token/', page('private', async (req, res) => {
    const token = String(req.params.token);
    if (!/^[A-Za-z0-9_-]{20,64}$/.test(token)) throw new NotFoundError();
    const row = await newsroom.previewRow(token);
    if (!row) throw new NotFoundError();
    const { doc, type_id: _typeId, slug: _slug, ...fields } = workingFields(row);
    const rendered = renderStoryDoc(doc);
    const article: ArticleDetailRow & { status: string } = { ...row, ...fields, body: rendered.text, body_html: rendered.html };
    // Never kept by a shared cache, never indexed.
    res.set('X-Robots-Tag', 'noindex, nofollow');
    const pageView = await articleDetailView(ctx, article, { preview: true });
    return pageView;
  }));

  return router;
}
