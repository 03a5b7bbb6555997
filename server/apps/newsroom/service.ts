import { createHash, randomBytes } from 'node:crypto';
import moment from 'moment-timezone';
import type { Knex } from 'knex';
import type { AppContext } from '../../context';
import { NotFoundError, PermissionDeniedError, ValidationError } from '../../http/errors';
import { slugify } from '../../../shared/format/text';
import { urls } from '../../../shared/urls';
import {
  emptyStoryDoc, NEWSROOM_TIMINGS, STORY_FIELDS, storyPermissions, type NewsroomRole, type StoryDoc, type StoryField,
} from '../../../shared/newsroom';
import { renderStoryDoc } from '../articles/story-render';
import { articlePath } from '../articles/serialize';
import { recordStaffAction, type StaffActor } from '../staff-audit/audit-log-queries';
import {
  articleTypeById, bestOfTargets, eventTargets, firstArticleTypeId, forgetPath, hasRevisions, insertPreview, insertRevision, insertStory,
  leavePresence, othersPresent, pathTaken, placeTargets, previewsOf, previewStoryId, rememberOldPath, revisionById, revisionsOf, revokePreview,
  storyAuthor, storyById, storyLinkTargets, touchPresence, updateStory, dueStories,
} from './queries';
import type { StoryFieldsInput } from './schemas';
import { storyChecks, type StoryCheck } from './checks';
import { createLinkChecker, LINK_CHECK_LIMITS } from './link-check';
import { toStoryDTO, workingValues, type StoryDTO, type StoryRow, type StoryValues } from './serialize';
import { listingPath } from '../listings/serialize';
import { fetchPastedImage, IMAGE_FETCH_LIMITS } from './image-fetch';
import { storyKeys, surrogateKeys } from '../../http/surrogate-keys';

// The newsroom's operations. Every write runs in one transaction with the story's row locked,
// writes its audit entry in the same transaction, and answers the pages whose cached copies
// must go. Saves merge by field: a save names the version it started from, and a field
// changed by someone else since is a conflict the editor resolves, while the others are saved.

export interface NewsroomActor extends StaffActor {
  role: NewsroomRole;
  name: string;
}

export interface SaveResult {
  story: StoryDTO;
  conflicts: Array<{ field: StoryField; mine: unknown; theirs: unknown }>;
}

export type JobSender = (name: string, data: Record<string, unknown>, opts: { startAfter: Date; singletonKey: string }) => Promise<unknown>;

export const STORY_JOBS = { publish: 'story.publish', unpublish: 'story.unpublish' } as const;

/** The columns a value of a field writes: the body also writes its HTML and its plain text. */
function columnsOf(field: StoryField, value: unknown): Record<string, unknown> {
  if (field === 'doc') {
    const r = renderStoryDoc(value as StoryDoc);
    return { doc: JSON.stringify(value), body_html: r.html, body: r.text };
  }
  return { [field]: value };
}

const sameValue = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function createNewsroomService(ctx: AppContext, deps: { sendJob?: JobSender } = {}) {
  const tz = ctx.config.city.timeZone;
  // Kept with the service, so reopening the publish dialog does not fetch a story's links again.
  const links = createLinkChecker({ ...LINK_CHECK_LIMITS, allowLoopback: ctx.config.calendarFeeds.allowLoopback });

  function permissionsFor(actor: NewsroomActor, row: Pick<StoryRow, 'author_id'>) {
    return storyPermissions(actor.role, row.author_id === actor.id);
  }

  async function loadFor(trx: Knex.Transaction | AppContext['db'], actor: NewsroomActor, id: number, forUpdate = false): Promise<StoryRow> {
    const row = await storyById(trx, id, forUpdate);
    if (!row) throw new NotFoundError();
    if (!permissionsFor(actor, row).edit) throw new PermissionDeniedError('This story is another writer’s; an editor may open it.');
    return row;
  }

  async function dto(row: StoryRow, actor: NewsroomActor): Promise<StoryDTO> {
    return toStoryDTO(row, ctx.config.site.url, permissionsFor(actor, row), ctx.now());
  }

  /** A path no other story has, for a story of this type published at `at`. */
  async function freePath(trx: Knex.Transaction, id: number, typeSlug: string, slug: string, at: Date): Promise<string> {
    for (let n = 1; ; n++) {
      const path = articlePath(typeSlug, at, n === 1 ? slug : `${slug}-${n}`, tz);
      if (!(await pathTaken(trx, path, id))) return path;
    }
  }

  async function addRevision(trx: Knex.Transaction, row: StoryRow, values: StoryValues, reason: string, actor: { id: number | null; name: string }, version: number, status: string): Promise<void> {
    const html = renderStoryDoc((values.doc as StoryDoc) ?? emptyStoryDoc()).html;
    await insertRevision(trx, { article_id: row.id, version, reason, status, fields: values, body_html: html, author_id: actor.id, author_name: actor.name, created_at: ctx.now() });
    await updateStory(trx, row.id, { last_revision_at: ctx.now() });
  }

  /** The pages a change to this story shows on (this process's cached copies go). */
  function pagesOf(row: Pick<StoryRow, 'path' | 'type_slug'>, oldPath?: string, oldTypeSlug?: string): string[] {
    const oldHub = oldTypeSlug && oldTypeSlug !== row.type_slug ? [urls.articleType(oldTypeSlug)] : [];
    return [row.path, ...(oldPath && oldPath !== row.path ? [oldPath] : []), '/', urls.articleType(row.type_slug), ...oldHub, '/news/', '/sitemap.xml', `${urls.articleType(row.type_slug)}rss.xml`];
  }

  /**
   * Makes a story public now (or at `at` for a scheduled one): its working copy becomes the
   * columns, its path is settled (the old one kept as a 301), a revision and an audit entry are
   * written. Answers the pages to purge.
   */
  async function publishRow(trx: Knex.Transaction, row: StoryRow, actor: { id: number | null; email: string; name: string }, opts: { at: Date; lateMinutes?: number | null; note?: string | null; action?: string }): Promise<string[]> {
    const values = workingValues(row);
    const type = await articleTypeById(trx, Number(values.type_id));
    if (!type) throw ValidationError.field('type_id', 'Choose a type.');
    const wasPublished = row.status === 'published' || row.status === 'unpublished';
    const publishedAt = wasPublished ? new Date(row.date_published) : opts.at;
    const slug = String(values.slug || slugify(String(values.name)) || `story-${row.id}`);
    const samePlace = wasPublished && row.path === articlePath(type.slug, publishedAt, slug, tz);
    const path = samePlace ? row.path : await freePath(trx, row.id, type.slug, slug, publishedAt);
    const cols: Record<string, unknown> = {};
    for (const f of STORY_FIELDS) Object.assign(cols, columnsOf(f, values[f]));
    const version = row.version + 1;
    await updateStory(trx, row.id, {
      ...cols,
      slug: path.split('/').slice(-2, -1)[0],
      path,
      status: 'published',
      pending: '{}',
      date_published: publishedAt,
      scheduled_at: null,
      published_late_minutes: opts.lateMinutes ?? null,
      version,
      date_updated: ctx.now(),
    });
    if (wasPublished && row.path !== path) await rememberOldPath(trx, row.path, row.id);
    await forgetPath(trx, path);
    await addRevision(trx, row, values, 'publish', { id: actor.id, name: actor.name }, version, 'published');
    await recordStaffAction(trx, { id: actor.id as number, email: actor.email }, {
      action: opts.action ?? (wasPublished && row.status === 'published' ? 'story.update' : 'story.publish'),
      subjectType: 'story',
      subjectId: row.id,
      note: opts.note ?? null,
      detail: { path, ...(opts.lateMinutes ? { late_minutes: opts.lateMinutes } : {}), ...(row.path !== path ? { old_path: row.path } : {}) },
    });
    return pagesOf({ path, type_slug: type.slug }, row.path, row.type_slug);
  }

  async function blockingChecks(trx: Knex.Transaction, row: StoryRow): Promise<StoryCheck[]> {
    return (await storyChecks(ctx, trx, row, workingValues(row))).filter((c) => c.blocking);
  }

  /** Refuses with the failed checks unless an editor gives a reason; answers the override note. */
  async function passChecks(trx: Knex.Transaction, actor: NewsroomActor, row: StoryRow, overrideReason: string | undefined): Promise<string | null> {
    const failed = await blockingChecks(trx, row);
    if (!failed.length) return null;
    if (overrideReason && permissionsFor(actor, row).override) {
      await recordStaffAction(trx, actor, { action: 'story.override', subjectType: 'story', subjectId: row.id, note: overrideReason, detail: { checks: failed.map((c) => c.code) } });
      return overrideReason;
    }
    throw new ValidationError({
      non_field_errors: [overrideReason ? 'Only an editor may publish over a failed check.' : 'Fix these before publishing, or ask an editor to publish with a reason.'],
      checks: failed.map((c) => c.message),
    });
  }

  /**
   * A story went live, changed while live or went away: every process forgets what it kept of
   * the pages showing it (all shared copies: the home, hubs, feeds, sitemaps and search list it).
   */
  /**
   * The body as the story's shared document holds it now, written into the story first: live
   * co-editing stores it a couple of seconds after the last change, and what is published,
   * checked, previewed or kept as a revision must not miss the last words.
   */
  async function takeSharedBody(actor: NewsroomActor, id: number): Promise<void> {
    const doc = await ctx.sharedStories.currentBody(id);
    if (doc) await saveFields(actor, id, { base_version: Number.MAX_SAFE_INTEGER, fields: { doc } });
  }

  /** The changed fields saved; a field someone else changed since base_version is a conflict, not saved. */
  async function saveFields(actor: NewsroomActor, id: number, input: { base_version: number; fields: StoryFieldsInput; explicit?: boolean }) {
    const conflicts: SaveResult['conflicts'] = [];
    let changed: StoryField[] = [];
    await ctx.db.transaction(async (trx) => {
      const row = await loadFor(trx, actor, id, true);
      if (input.fields.type_id !== undefined && !(await articleTypeById(trx, input.fields.type_id))) throw ValidationError.field('type_id', 'Choose a type.');
      const current = workingValues(row);
      const applied: Partial<Record<StoryField, unknown>> = {};
      for (const [f, value] of Object.entries(input.fields) as Array<[StoryField, unknown]>) {
        if (sameValue(current[f], value)) continue;
        const changedSince = (row.field_versions[f] ?? 0) > input.base_version;
        if (changedSince) conflicts.push({ field: f, mine: value, theirs: current[f] });
        else applied[f] = value;
      }
      changed = Object.keys(applied) as StoryField[];
      const version = changed.length ? row.version + 1 : row.version;
      if (changed.length) {
        const fieldVersions = { ...row.field_versions };
        for (const f of changed) fieldVersions[f] = version;
        const update: Record<string, unknown> = { version, field_versions: JSON.stringify(fieldVersions), date_updated: ctx.now() };
        if (row.status === 'published') update.pending = JSON.stringify({ ...row.pending, ...applied });
        else for (const f of changed) Object.assign(update, columnsOf(f, applied[f]));
        await updateStory(trx, id, update);
      }
      const after = (await storyById(trx, id))!;
      const due = !row.last_revision_at || ctx.now().getTime() - new Date(row.last_revision_at).getTime() >= NEWSROOM_TIMINGS.revisionIntervalMs;
      // An explicit save makes a revision when there is something new since the last one (pressing Save twice keeps one).
      const newSinceRevision = changed.length > 0 || !row.last_revision_at || new Date(row.last_revision_at) < new Date(row.date_updated);
      const reason = !(await hasRevisions(trx, id)) ? 'first_save' : input.explicit && newSinceRevision ? 'explicit' : changed.length && due ? 'interval' : null;
      if (reason) await addRevision(trx, after, workingValues(after), reason, actor, version, after.status);
    });
    return { story: await dto((await storyById(ctx.db, id))!, actor), conflicts, changed };
  }

  async function announce(id: number, paths: string[]): Promise<void> {
    if (!paths.length) return;
    // The edge drops the answers naming the story, its section (and a section it left: a hub
    // among the pages), the latest news, the home and the feeds (http/surrogate-keys.ts).
    const row = await storyById(ctx.db, id);
    const sections = paths.filter((p) => /^\/[a-z0-9-]+\/$/.test(p)).map((p) => surrogateKeys.section(p.slice(1, -1)));
    const keys = [...new Set([...(row ? storyKeys(id, row.type_slug) : [surrogateKeys.story(id), surrogateKeys.home, surrogateKeys.feeds]), ...sections])];
    await ctx.changes.announce({ subject: `story:${id}`, paths: [], keys });
  }

  function cityMinute(local: string, field: string): Date {
    const m = moment.tz(local, 'YYYY-MM-DDTHH:mm', true, tz);
    if (!m.isValid()) throw ValidationError.field(field, 'Enter a date and time (YYYY-MM-DDTHH:mm).');
    const at = m.toDate();
    if (at.getTime() <= ctx.now().getTime()) throw ValidationError.field(field, 'Choose a time in the future.');
    return at;
  }

  return {
    permissionsFor,

    async create(actor: NewsroomActor, fields: StoryFieldsInput): Promise<StoryDTO> {
      const id = await ctx.db.transaction(async (trx) => {
        const typeId = fields.type_id ?? (await firstArticleTypeId(trx));
        if (!typeId || !(await articleTypeById(trx, typeId))) throw ValidationError.field('type_id', 'Choose a type.');
        const doc = (fields.doc as StoryDoc | undefined) ?? emptyStoryDoc();
        const rendered = renderStoryDoc(doc);
        const now = ctx.now();
        const id = await insertStory(trx, {
          type_id: typeId,
          name: fields.name ?? '',
          slug: fields.slug ?? '',
          path: `/draft/${randomBytes(12).toString('hex')}/`,
          excerpt: fields.excerpt ?? '',
          doc: JSON.stringify(doc),
          body_html: rendered.html,
          body: rendered.text,
          image_key: fields.image_key ?? null,
          image_alt: fields.image_alt ?? '',
          image_credit: fields.image_credit ?? '',
          seo_title: fields.seo_title ?? '',
          seo_description: fields.seo_description ?? '',
          canonical_url: fields.canonical_url ?? '',
          social_image_key: fields.social_image_key ?? null,
          is_sponsored: fields.is_sponsored ?? false,
          sponsor_name: fields.sponsor_name ?? '',
          author_name: fields.author_name ?? actor.name,
          author_id: actor.id,
          status: 'draft',
          version: 1,
          date_published: now,
          date_created: now,
          date_updated: now,
        });
        await updateStory(trx, id, { path: `/draft/${id}/` });
        const row = (await storyById(trx, id))!;
        await addRevision(trx, row, workingValues(row), 'first_save', actor, 1, 'draft');
        return id;
      });
      return dto((await storyById(ctx.db, id))!, actor);
    },

    async get(actor: NewsroomActor, id: number): Promise<StoryDTO> {
      return dto(await loadFor(ctx.db, actor, id), actor);
    },

    /** Saves the changed fields; those someone else changed since base_version come back as conflicts. */
    async save(actor: NewsroomActor, id: number, input: { base_version: number; fields: StoryFieldsInput; explicit?: boolean }): Promise<SaveResult> {
      // An explicit revision holds the body as the editors in the story see it now.
      if (input.explicit && input.fields.doc === undefined) await takeSharedBody(actor, id);
      const result = await saveFields(actor, id, input);
      // A body saved through the API (an editor that could not go live, an API client): the
      // shared document takes it, so editors in the story see it.
      if (result.changed.includes('doc')) await ctx.sharedStories.replaceBody(id, input.fields.doc as StoryDoc);
      return { story: result.story, conflicts: result.conflicts };
    },

    /**
     * The body from the story's shared document (live co-editing), which has merged everyone's
     * changes already: never a conflict. Revisions as for any save.
     */
    async saveSharedBody(actor: NewsroomActor, id: number, doc: StoryDoc): Promise<void> {
      await saveFields(actor, id, { base_version: Number.MAX_SAFE_INTEGER, fields: { doc } });
    },

    async submitForReview(actor: NewsroomActor, id: number): Promise<StoryDTO> {
      await takeSharedBody(actor, id);
      await ctx.db.transaction(async (trx) => {
        const row = await loadFor(trx, actor, id, true);
        if (row.status !== 'draft' && row.status !== 'unpublished') throw ValidationError.nonField(`A story that is ${row.status} cannot be sent for review.`);
        await updateStory(trx, id, { status: 'review', version: row.version + 1, date_updated: ctx.now() });
        await recordStaffAction(trx, actor, { action: 'story.submit', subjectType: 'story', subjectId: id });
      });
      return dto((await storyById(ctx.db, id))!, actor);
    },

    async publish(actor: NewsroomActor, id: number, overrideReason?: string): Promise<{ story: StoryDTO; purge: string[] }> {
      await takeSharedBody(actor, id);
      const purge = await ctx.db.transaction(async (trx) => {
        const row = await loadFor(trx, actor, id, true);
        if (!permissionsFor(actor, row).publish) throw new PermissionDeniedError('Contributors cannot publish; submit the story for review.');
        const note = await passChecks(trx, actor, row, overrideReason);
        return publishRow(trx, row, actor, { at: ctx.now(), note });
      });
      await announce(id, purge);
      return { story: await dto((await storyById(ctx.db, id))!, actor), purge };
    },

    async schedule(actor: NewsroomActor, id: number, local: string, overrideReason?: string): Promise<StoryDTO> {
      await takeSharedBody(actor, id);
      const at = cityMinute(local, 'publish_at');
      await ctx.db.transaction(async (trx) => {
        const row = await loadFor(trx, actor, id, true);
        if (!permissionsFor(actor, row).publish) throw new PermissionDeniedError('Contributors cannot schedule; submit the story for review.');
        if (row.status === 'published') throw ValidationError.nonField('This story is already published; unpublish it first, or schedule its unpublishing.');
        const note = await passChecks(trx, actor, row, overrideReason);
        await updateStory(trx, id, { status: 'scheduled', scheduled_at: at, version: row.version + 1, date_updated: ctx.now() });
        await recordStaffAction(trx, actor, { action: 'story.schedule', subjectType: 'story', subjectId: id, note, detail: { publish_at: at.toISOString() } });
      });
      await deps.sendJob?.(STORY_JOBS.publish, { id, at: at.toISOString() }, { startAfter: at, singletonKey: `${id}:${at.toISOString()}` });
      return dto((await storyById(ctx.db, id))!, actor);
    },

    async unschedule(actor: NewsroomActor, id: number): Promise<StoryDTO> {
      await ctx.db.transaction(async (trx) => {
        const row = await loadFor(trx, actor, id, true);
        if (!permissionsFor(actor, row).publish) throw new PermissionDeniedError();
        if (row.status === 'scheduled') await updateStory(trx, id, { status: 'draft', scheduled_at: null, version: row.version + 1, date_updated: ctx.now() });
        else if (row.unpublish_at) await updateStory(trx, id, { unpublish_at: null, version: row.version + 1, date_updated: ctx.now() });
        else throw ValidationError.nonField('Nothing is scheduled for this story.');
        await recordStaffAction(trx, actor, { action: 'story.unschedule', subjectType: 'story', subjectId: id });
      });
      return dto((await storyById(ctx.db, id))!, actor);
    },

    async unpublish(actor: NewsroomActor, id: number, local?: string): Promise<{ story: StoryDTO; purge: string[] }> {
      const at = local ? cityMinute(local, 'at') : null;
      const purge = await ctx.db.transaction(async (trx) => {
        const row = await loadFor(trx, actor, id, true);
        if (!permissionsFor(actor, row).publish) throw new PermissionDeniedError('Contributors cannot unpublish.');
        if (row.status !== 'published') throw ValidationError.nonField('Only a published story can be unpublished.');
        if (at) {
          await updateStory(trx, id, { unpublish_at: at, version: row.version + 1, date_updated: ctx.now() });
          await recordStaffAction(trx, actor, { action: 'story.schedule_unpublish', subjectType: 'story', subjectId: id, detail: { unpublish_at: at.toISOString() } });
          return [];
        }
        return unpublishRow(trx, row, actor);
      });
      await announce(id, purge);
      if (at) await deps.sendJob?.(STORY_JOBS.unpublish, { id, at: at.toISOString() }, { startAfter: at, singletonKey: `${id}:${at.toISOString()}` });
      return { story: await dto((await storyById(ctx.db, id))!, actor), purge };
    },

    async checks(actor: NewsroomActor, id: number): Promise<StoryCheck[]> {
      await takeSharedBody(actor, id);
      const row = await loadFor(ctx.db, actor, id);
      return storyChecks(ctx, ctx.db, row, workingValues(row), links);
    },

    async revisions(actor: NewsroomActor, id: number) {
      await loadFor(ctx.db, actor, id);
      return revisionsOf(ctx.db, id);
    },

    async revision(actor: NewsroomActor, id: number, revisionId: number) {
      await loadFor(ctx.db, actor, id);
      const r = await revisionById(ctx.db, id, revisionId);
      if (!r) throw new NotFoundError();
      return r;
    },

    /** A revision's fields become the working copy: a new draft of them (for a published story, its pending changes). */
    async restore(actor: NewsroomActor, id: number, revisionId: number): Promise<StoryDTO> {
      const rev = await revisionById(ctx.db, id, revisionId);
      if (!rev) throw new NotFoundError();
      let restoredBody = false;
      await ctx.db.transaction(async (trx) => {
        const row = await loadFor(trx, actor, id, true);
        const current = workingValues(row);
        const changed = STORY_FIELDS.filter((f) => Object.prototype.hasOwnProperty.call(rev.fields, f) && !sameValue(current[f], rev.fields[f]));
        const version = row.version + 1;
        const fieldVersions = { ...row.field_versions };
        for (const f of changed) fieldVersions[f] = version;
        const update: Record<string, unknown> = { version, field_versions: JSON.stringify(fieldVersions), date_updated: ctx.now() };
        const restored = Object.fromEntries(changed.map((f) => [f, rev.fields[f]]));
        if (row.status === 'published') update.pending = JSON.stringify({ ...row.pending, ...restored });
        else {
          for (const f of changed) Object.assign(update, columnsOf(f, rev.fields[f]));
          if (row.status === 'scheduled' || row.status === 'review') Object.assign(update, { status: 'draft', scheduled_at: null });
        }
        await updateStory(trx, id, update);
        const after = (await storyById(trx, id))!;
        await addRevision(trx, after, workingValues(after), 'restore', actor, version, after.status);
        await recordStaffAction(trx, actor, { action: 'story.restore', subjectType: 'story', subjectId: id, detail: { revision: revisionId, version: rev.version } });
        restoredBody = changed.includes('doc');
      });
      // A restore is a change everyone in the story sees: the shared document takes the body.
      if (restoredBody) await ctx.sharedStories.replaceBody(id, rev.fields.doc as StoryDoc);
      return dto((await storyById(ctx.db, id))!, actor);
    },

    async createPreview(actor: NewsroomActor, id: number): Promise<{ id: number; url: string; expires_at: string }> {
      await loadFor(ctx.db, actor, id);
      await takeSharedBody(actor, id);
      const token = randomBytes(24).toString('base64url');
      const now = ctx.now();
      const expires = new Date(now.getTime() + NEWSROOM_TIMINGS.previewDays * 86_400_000);
      const pid = await insertPreview(ctx.db, { article_id: id, token_hash: hashToken(token), created_by: actor.id, expires_at: expires, created_at: now });
      await recordStaffAction(ctx.db, actor, { action: 'story.preview_link', subjectType: 'story', subjectId: id, detail: { preview: pid } });
      return { id: pid, url: `${ctx.config.site.url}/preview/${token}/`, expires_at: expires.toISOString() };
    },

    async previews(actor: NewsroomActor, id: number) {
      await loadFor(ctx.db, actor, id);
      return previewsOf(ctx.db, id);
    },

    async revokePreview(actor: NewsroomActor, id: number, previewId: number): Promise<void> {
      await loadFor(ctx.db, actor, id);
      if (!(await revokePreview(ctx.db, id, previewId, ctx.now()))) throw new NotFoundError();
      await recordStaffAction(ctx.db, actor, { action: 'story.preview_revoke', subjectType: 'story', subjectId: id, detail: { preview: previewId } });
    },

    /** The story behind a preview link, as its working copy; undefined for a dead link. */
    async previewRow(token: string): Promise<StoryRow | undefined> {
      const id = await previewStoryId(ctx.db, hashToken(token), ctx.now());
      return id ? storyById(ctx.db, id) : undefined;
    },

    async presence(actor: NewsroomActor, id: number): Promise<Array<{ name: string; since: string }>> {
      await loadFor(ctx.db, actor, id);
      await touchPresence(ctx.db, id, actor.id, ctx.now(), NEWSROOM_TIMINGS.presenceTtlMs);
      return (await othersPresent(ctx.db, id, actor.id, ctx.now(), NEWSROOM_TIMINGS.presenceTtlMs)).map((o) => ({ name: o.name, since: new Date(o.since).toISOString() }));
    },

    async leave(actor: NewsroomActor, id: number): Promise<void> {
      await leavePresence(ctx.db, id, actor.id);
    },

    /** A picture pasted from another site, copied into the upload pipeline (image-fetch.ts). */
    async fetchImage(actor: NewsroomActor, id: number, url: string): Promise<{ key: string }> {
      await loadFor(ctx.db, actor, id);
      return { key: await fetchPastedImage(ctx.storage, url, { ...IMAGE_FETCH_LIMITS, allowLoopback: ctx.config.calendarFeeds.allowLoopback }) };
    },

    async linkTargets(q: string) {
      const [stories, places] = await Promise.all([storyLinkTargets(ctx.db, ctx.now(), q, 8), placeTargets(ctx.db, q, 8)]);
      return [
        ...stories.map((s) => ({ kind: 'story' as const, label: s.name, url: s.path })),
        ...places.map((p) => ({ kind: 'place' as const, label: `${p.name} (${p.type_name})`, url: listingPath(p) })),
      ];
    },

    async cardTargets(kind: 'place' | 'event' | 'bestOf', q: string) {
      if (kind === 'place') return (await placeTargets(ctx.db, q, 10)).map((p) => ({ kind, id: Number(p.id), label: p.name, detail: [p.type_name, p.neighbourhood_name, p.closed_on ? 'Closed' : null].filter(Boolean).join(' · ') }));
      if (kind === 'event') return (await eventTargets(ctx.db, q, 10)).map((e) => ({ kind, id: Number(e.id), label: e.title, detail: e.venue_name }));
      return (await bestOfTargets(ctx.db, q, 10)).map((b) => ({ kind, id: Number(b.id), label: b.title, detail: urls.bestOfList(b.slug) }));
    },

    /**
     * The scheduler's publish (a job, or the catch-up at start): only a story still scheduled
     * for exactly that time, so a job that runs twice, or one for a time since changed, does
     * nothing. Late by more than a minute: says by how much, in the story and the audit log.
     */
    async publishDue(id: number, atIso: string): Promise<string[]> {
      const purge = await ctx.db.transaction(async (trx) => {
        const row = await storyById(trx, id, true);
        if (!row || row.status !== 'scheduled' || !row.scheduled_at || new Date(row.scheduled_at).toISOString() !== atIso) return [];
        const at = new Date(row.scheduled_at);
        const lateMs = ctx.now().getTime() - at.getTime();
        const lateMinutes = lateMs > NEWSROOM_TIMINGS.lateAfterMs ? Math.round(lateMs / 60_000) : null;
        const who = row.author_id ? await storyAuthor(trx, row.author_id) : null;
        return publishRow(trx, row, { id: who?.id ?? null, email: who?.email ?? 'scheduler', name: 'Scheduler' }, {
          at,
          lateMinutes,
          action: 'story.publish',
          note: lateMinutes ? `Scheduled; published ${lateMinutes} min late` : 'Scheduled',
        });
      });
      await announce(id, purge);
      return purge;
    },

    async unpublishDue(id: number, atIso: string): Promise<string[]> {
      const purge = await ctx.db.transaction(async (trx) => {
        const row = await storyById(trx, id, true);
        if (!row || row.status !== 'published' || !row.unpublish_at || new Date(row.unpublish_at).toISOString() !== atIso) return [];
        return unpublishRow(trx, row, { id: row.author_id, email: 'scheduler', name: 'Scheduler' });
      });
      await announce(id, purge);
      return purge;
    },

    /** Whatever is due and not done (no process was up at its time, or a job was lost): done now. */
    async runDue(): Promise<number> {
      const due = await dueStories(ctx.db, ctx.now(), STORY_JOBS);
      let n = 0;
      for (const s of due.publish) if ((await this.publishDue(s.id, new Date(s.at).toISOString())).length) n++;
      for (const s of due.unpublish) if ((await this.unpublishDue(s.id, new Date(s.at).toISOString())).length) n++;
      return n;
    },
  };

  async function unpublishRow(trx: Knex.Transaction, row: StoryRow, actor: { id: number | null; email: string; name: string }): Promise<string[]> {
    const version = row.version + 1;
    await updateStory(trx, row.id, { status: 'unpublished', unpublish_at: null, version, date_updated: ctx.now() });
    await addRevision(trx, row, workingValues(row), 'unpublish', actor, version, 'unpublished');
    await recordStaffAction(trx, { id: actor.id as number, email: actor.email }, { action: 'story.unpublish', subjectType: 'story', subjectId: row.id });
    return pagesOf(row);
  }
}

export type NewsroomService = ReturnType<typeof createNewsroomService>;
