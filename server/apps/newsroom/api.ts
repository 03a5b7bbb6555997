import { Router, type Request, type Response } from 'express';
import type { AppContext } from '../../context';
import { requireNewsroom } from '../../http/auth-guards';
import { NotAuthenticatedError } from '../../http/errors';
import { paginated } from '../../http/pagination';
import { idParam, validate } from '../../http/validate';
import type { NewsroomRole } from '../../../shared/newsroom';
import type { NewsroomActor, NewsroomService } from './service';
import { listStories } from './queries';
import { toStoryDTO } from './serialize';
import { cardTargetsSchema, createStorySchema, fetchImageSchema, storyFieldsSchema, publishSchema, saveStorySchema, scheduleSchema, storyListQuerySchema, typeaheadSchema, unpublishSchema } from './schemas';

export const NEWSROOM_API = '/api/v2/staff/';

/** Who is acting, behind requireNewsroom. */
export function newsroomActorOf(req: Request): NewsroomActor {
  if (!req.user?.newsroom_role) throw new NotAuthenticatedError();
  return { id: req.user.id, email: req.user.email, role: req.user.newsroom_role as NewsroomRole, name: req.user.full_name || req.user.email };
}

// ## The newsroom's API (docs/newsroom.md): staff with a role only; never cached.
export function newsroomApi(ctx: AppContext, newsroom: NewsroomService): Router {
  const router = Router();
  const base = `${NEWSROOM_API}stories/`;
  const json = (res: Response, status: number, body: unknown) => res.status(status).set('Cache-Control', 'no-store').json(body);
  router.use(NEWSROOM_API, requireNewsroom);

  router.get(base, async (req, res) => {
    const q = validate(storyListQuerySchema, req.query);
    const { count, rows } = await listStories(ctx.db, { status: q.status, typeId: q.type, authorId: q.author, q: q.q, limit: q.limit, offset: q.offset });
    const actor = newsroomActorOf(req);
    json(res, 200, paginated(req, { limit: q.limit, offset: q.offset }, count, rows.map((r) => toStoryDTO(r, ctx.config.site.url, newsroom.permissionsFor(actor, r), ctx.now()))));
  });
  router.post(base, async (req, res) => {
    const fields = validate(storyFieldsSchema, validate(createStorySchema, req.body ?? {}).fields);
    json(res, 201, await newsroom.create(newsroomActorOf(req), fields));
  });
  router.get(`${base}:id/`, async (req, res) => json(res, 200, await newsroom.get(newsroomActorOf(req), idParam(req.params.id))));
  router.patch(`${base}:id/`, async (req, res) => {
    const input = validate(saveStorySchema, req.body);
    const fields = validate(storyFieldsSchema, input.fields);
    const { story, conflicts } = await newsroom.save(newsroomActorOf(req), idParam(req.params.id), { ...input, fields });
    if (conflicts.length) return json(res, 409, { detail: 'Someone else changed these fields since you started; choose what to keep.', conflicts, story });
    json(res, 200, story);
  });
  router.post(`${base}:id/submit/`, async (req, res) => json(res, 200, await newsroom.submitForReview(newsroomActorOf(req), idParam(req.params.id))));
  router.post(`${base}:id/publish/`, async (req, res) => {
    const { override_reason } = validate(publishSchema, req.body ?? {});
    // The service tells every process's caches (ctx.changes).
    const { story } = await newsroom.publish(newsroomActorOf(req), idParam(req.params.id), override_reason || undefined);
    json(res, 200, story);
  });
  router.post(`${base}:id/schedule/`, async (req, res) => {
    const { publish_at, override_reason } = validate(scheduleSchema, req.body ?? {});
    json(res, 200, await newsroom.schedule(newsroomActorOf(req), idParam(req.params.id), publish_at, override_reason || undefined));
  });
  router.post(`${base}:id/unschedule/`, async (req, res) => json(res, 200, await newsroom.unschedule(newsroomActorOf(req), idParam(req.params.id))));
  router.post(`${base}:id/unpublish/`, async (req, res) => {
    const { at } = validate(unpublishSchema, req.body ?? {});
    const { story } = await newsroom.unpublish(newsroomActorOf(req), idParam(req.params.id), at);
    json(res, 200, story);
  });
  router.get(`${base}:id/checks/`, async (req, res) => json(res, 200, { checks: await newsroom.checks(newsroomActorOf(req), idParam(req.params.id)) }));
  router.get(`${base}:id/revisions/`, async (req, res) => json(res, 200, { results: await newsroom.revisions(newsroomActorOf(req), idParam(req.params.id)) }));
  router.get(`${base}:id/revisions/:rid/`, async (req, res) => json(res, 200, await newsroom.revision(newsroomActorOf(req), idParam(req.params.id), idParam(req.params.rid))));
  router.post(`${base}:id/revisions/:rid/restore/`, async (req, res) => json(res, 200, await newsroom.restore(newsroomActorOf(req), idParam(req.params.id), idParam(req.params.rid))));
  router.get(`${base}:id/previews/`, async (req, res) => json(res, 200, { results: await newsroom.previews(newsroomActorOf(req), idParam(req.params.id)) }));
  router.post(`${base}:id/previews/`, async (req, res) => json(res, 201, await newsroom.createPreview(newsroomActorOf(req), idParam(req.params.id))));
  router.delete(`${base}:id/previews/:pid/`, async (req, res) => {
    await newsroom.revokePreview(newsroomActorOf(req), idParam(req.params.id), idParam(req.params.pid));
    res.status(204).end();
  });
  router.post(`${base}:id/presence/`, async (req, res) => json(res, 200, { others: await newsroom.presence(newsroomActorOf(req), idParam(req.params.id)) }));
  router.delete(`${base}:id/presence/`, async (req, res) => {
    await newsroom.leave(newsroomActorOf(req), idParam(req.params.id));
    res.status(204).end();
  });
  router.post(`${base}:id/fetch-image/`, async (req, res) => {
    const { url } = validate(fetchImageSchema, req.body ?? {});
    json(res, 201, await newsroom.fetchImage(newsroomActorOf(req), idParam(req.params.id), url));
  });
  router.get(`${NEWSROOM_API}link-targets/`, async (req, res) => {
    const { q } = validate(typeaheadSchema, req.query);
    json(res, 200, await newsroom.linkTargets(q));
  });
  router.get(`${NEWSROOM_API}card-targets/`, async (req, res) => {
    const { q, kind } = validate(cardTargetsSchema, req.query);
    json(res, 200, await newsroom.cardTargets(kind, q));
  });
  return router;
}
