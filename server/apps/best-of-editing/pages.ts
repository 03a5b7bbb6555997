import { Router, type Request, type Response } from 'express';
import type { ZodType } from 'zod';
import type { AppContext } from '../../context';
import { requireStaffPage } from '../../http/auth-guards';
import { staffMenu, type StaffSection } from '../../http/staff-menu';
import { NotFoundError, type FieldErrors } from '../../http/errors';
import { textFieldsOf } from '../../http/validate';
import { page, PageRedirect, type PageView } from '../../http/pages/page-view';
import { formPost } from '../../http/pages/form-post';
import { urls } from '../../../shared/urls';
import { bestOfChanges, bestOfItems } from '../articles/queries';
import { bestOfChangesPath, bestOfChangeView } from '../articles/view-models';
import { staffActorOf } from '../staff-audit/audit-log-queries';
import { bestOfListKeys } from '../../http/surrogate-keys';
import { applyBestOfEdit, bestOfListBySlug, bestOfListSummaries, cityDay, createBestOfList, type BestOfEdit } from './edit-queries';
import { addPickSchema, BLURB_MAX, CRITERIA_MAX, criteriaSchema, INTRO_MAX, movePickSchema, newListSchema, REASON_MAX, removePickSchema, SLUG_MAX, TITLE_MAX, visitedSchema } from './schemas';

// Staff pages for Best of lists (/staff/best-of/): every list, and one page a list where staff
// add a place, remove one, move one up or down, change the criteria or a pick's last visit,
// each with the reason readers will see in the list's change log. Like every /staff/ page:
// staff only, plain forms with the CSRF token that work without JavaScript, answered with a
// 303 so a reload never repeats an edit; a refused form comes back 400 with the message beside
// its field. A list that is not there is a 404, whatever the form says.

const LIST_URL = '/staff/best-of/';

/** Best of lists' section of the staff menu (the registry puts every app's in order). */
export const bestOfStaffSection: StaffSection = {
  href: LIST_URL,
  title: 'Best of lists',
  text: 'Start a list; add, remove and reorder picks, with the reason readers see in each list\'s change log.',
};
const RECENT_CHANGES = 20;

type Action = 'add' | 'remove' | 'move' | 'criteria' | 'visited';

/** Each form: what it reads, and the edit it makes. */
const FORMS: { [A in Action]: { schema: ZodType<unknown>; edit: (form: never) => BestOfEdit } } = {
  add: { schema: addPickSchema, edit: (f: { listing: number; blurb: string; reason: string }) => ({ kind: 'add', ...f }) },
  remove: { schema: removePickSchema, edit: (f: { listing: number; reason: string }) => ({ kind: 'remove', ...f }) },
  move: { schema: movePickSchema, edit: (f: { listing: number; direction: 'up' | 'down'; reason: string }) => ({ kind: 'move', ...f }) },
  criteria: { schema: criteriaSchema, edit: (f: { criteria: string; reason: string }) => ({ kind: 'criteria', ...f }) },
  visited: { schema: visitedSchema, edit: (f: { listing: number; visited_on: string; reason: string }) => ({ kind: 'visited', listing: f.listing, visitedOn: f.visited_on, reason: f.reason }) },
};

/** A refused form: which one ('move:12': the action and the pick it was for), its messages and what was typed. */
interface FormErrors {
  key: string;
  fields: FieldErrors;
  values: Record<string, string>;
}

export function bestOfStaffPages(ctx: AppContext): Router {
  const router = Router();
  const staffOnly = requireStaffPage;
  const common = (pageTitle: string) => ({ ...staffMenu(ctx, LIST_URL), pageTitle });

  const indexPage = async (newList: { fields: FieldErrors; values: Record<string, string> } | null = null): Promise<PageView> => {
    const lists = await bestOfListSummaries(ctx.db);
    return { template: 'best-of-editing/index.njk', ...common('Best of lists'), lists, newList, newLimits: { title: TITLE_MAX, slug: SLUG_MAX, intro: INTRO_MAX, criteria: CRITERIA_MAX } };
  };

  router.get(LIST_URL, staffOnly, page('private', () => indexPage()));

  // A new list: made empty (picks are added on its own page, each with its reason) and on
  // /best-of/ at once.
  router.post('/staff/best-of/new/', staffOnly, page('private', (req, res) => formPost(res, {
    schema: newListSchema,
    body: textFieldsOf(req.body),
    valid: async (form) => {
      const list = await createBestOfList(ctx.db, { actor: staffActorOf(req), now: ctx.now() }, form);
      // The hub lists it; its own address may have been kept as a 404.
      await ctx.changes.announce({ subject: `best-of:${list.id}`, paths: ['/best-of/', urls.bestOfList(list.slug)], keys: bestOfListKeys(list.id) });
      return new PageRedirect(`/staff/best-of/${encodeURIComponent(list.slug)}/?done=created`, 303);
    },
    invalid: (fields, values) => indexPage({ fields, values }),
  })));

  const editPage = async (slug: string, req: Request, errors: FormErrors | null = null): Promise<PageView> => {
    const list = await bestOfListBySlug(ctx.db, slug);
    if (!list) throw new NotFoundError();
    const [items, changes] = await Promise.all([bestOfItems(ctx.db, list.id), bestOfChanges(ctx.db, list.id, { limit: RECENT_CHANGES, offset: 0 })]);
    const done = typeof req.query.done === 'string' && /^(created|added|removed|moved_up|moved_down|criteria|visited)$/.test(req.query.done) ? req.query.done : null;
    return {
      template: 'best-of-editing/list.njk',
      ...common(`${list.title} – Best of lists`),
      list,
      publicUrl: urls.bestOfList(list.slug),
      changesUrl: bestOfChangesPath(list.slug),
      items,
      changes: changes.rows.map(bestOfChangeView),
      today: cityDay(ctx.now(), ctx.config.city.timeZone),
      limits: { reason: REASON_MAX, criteria: CRITERIA_MAX, blurb: BLURB_MAX },
      errors,
      done: errors ? null : done,
    };
  };

  router.get('/staff/best-of/:slug/', staffOnly, page('private', (req) => editPage(String(req.params.slug), req)));

  for (const action of Object.keys(FORMS) as Action[]) {
    router.post(`/staff/best-of/:slug/${action}/`, staffOnly, page('private', (req, res) => editPost(action, req, res)));
  }

  async function editPost(action: Action, req: Request, res: Response): Promise<PageView | PageRedirect> {
    const slug = String(req.params.slug);
    const list = await bestOfListBySlug(ctx.db, slug);
    if (!list) throw new NotFoundError();
    return formPost(res, {
      schema: FORMS[action].schema,
      body: textFieldsOf(req.body),
      valid: async (form) => {
        const done = await applyBestOfEdit(ctx.db, { actor: staffActorOf(req), now: ctx.now(), timeZone: ctx.config.city.timeZone }, list.id, FORMS[action].edit(form as never));
        // The list's pages are the same for every reader and kept by the page caches: every
        // process's copies go (this one's now, the others' when the notice arrives).
        await ctx.changes.announce({ subject: `best-of:${list.id}`, paths: [urls.bestOfList(list.slug), bestOfChangesPath(list.slug), '/best-of/'], keys: bestOfListKeys(list.id) });
        return new PageRedirect(`/staff/best-of/${encodeURIComponent(list.slug)}/?done=${done.kind}#changes`, 303);
      },
      invalid: (fields, values) => {
        const pickForm = action !== 'add' && action !== 'criteria';
        return editPage(slug, req, { key: `${action}:${pickForm ? (values.listing ?? '') : ''}`, fields, values });
      },
    });
  }

  return router;
}
