import type { Request, Response } from 'express';
import type { AppContext } from '../../context';
import { memberId, requireMember } from '../../http/auth-guards';
import { idParam } from '../../http/validate';
import { paginated, pageParams } from '../../http/pagination';
import type { AnySaveKind, CreateRequest, SaveKind } from './save-kind';
import { orderingParam } from './ordering';
import { createSave, deleteSave, getSave, listSaves, savedObjectMap, updateSave } from './save-queries';
import { Router, type RequestHandler } from 'express';
import { SAVE_KINDS } from '../../../shared/save-kinds';

// The HTTP side of saving, for any kind: each handler reads and validates its input, makes
// one call into ./save-queries.ts and answers DRF-shaped JSON. Every answer is the member's own, so
// none of them may be cached.

export interface SaveHandlers {
  list: RequestHandler;
  retrieve: RequestHandler;
  create: RequestHandler;
  remove: RequestHandler;
  /** Object id → save id (or {id, ...extra} with `extra` columns). */
  ids: RequestHandler;
  /** PATCH /{id}/: `parse` turns the body into the columns to change. */
  patch(parse: (body: unknown, now: Date) => Record<string, unknown>): RequestHandler;
}

function noStore(res: Response) {
  return res.set('Cache-Control', 'no-store');
}

export function saveHandlers<DTO, Obj>(ctx: AppContext, kind: SaveKind<DTO, Obj>, opts: { idsExtra?: readonly string[] } = {}): SaveHandlers {
  const { db, config } = ctx;
  const anyKind: AnySaveKind = kind;

  /** The save as its DTO, read back after a change. */
  const readSave = async (member: number, saveId: number) => kind.toDTO(await getSave<Obj>(db, anyKind, member, saveId, ctx.now()), config.site.url);

  return {
    list: async (req: Request, res: Response) => {
      const query = req.query as Record<string, unknown>;
      const scope = kind.list.scope?.(query) ?? {};
      const page = pageParams(req, scope.pageSize ?? kind.list.pageSize);
      const ordering = orderingParam(query.ordering, kind.list.orderings, scope.defaultOrdering ?? kind.list.defaultOrdering);
      const now = ctx.now();
      const { count, rows } = await listSaves<Obj>(db, anyKind, memberId(req), { ...page, ordering, where: scope.where }, now);
      const body = paginated(req, page, count, rows.map((row) => kind.toDTO(row, config.site.url)));
      noStore(res).json(kind.list.serverTime ? { ...body, server_time: now.toISOString() } : body);
    },

    retrieve: async (req: Request, res: Response) => {
      noStore(res).json(await readSave(memberId(req), idParam(req.params.id)));
    },

    create: async (req: Request, res: Response) => {
      const { created, dto } = await createAndRead(ctx, kind, memberId(req), kind.parseCreate(req.body, ctx.now()));
      noStore(res).status(created ? 201 : 200).json(dto);
    },

    patch: (parse) => async (req: Request, res: Response) => {
      const member = memberId(req);
      const saveId = idParam(req.params.id);
      await updateSave(db, anyKind, member, saveId, parse(req.body, ctx.now()), ctx.now());
      noStore(res).json(await readSave(member, saveId));
    },

    remove: async (req: Request, res: Response) => {
      await deleteSave(db, anyKind, memberId(req), idParam(req.params.id), ctx.now());
      res.status(204).end();
    },

    ids: async (req: Request, res: Response) => {
      noStore(res).json(await savedObjectMap(db, anyKind, memberId(req), opts.idsExtra));
    },
  };
}

/** Saves the object and reads the save back as its DTO; 201 or 200 is the caller's to answer. */
export async function createAndRead<DTO, Obj>(ctx: AppContext, kind: SaveKind<DTO, Obj>, member: number, req: CreateRequest): Promise<{ created: boolean; dto: DTO }> {
  const saved = await createSave(ctx.db, kind, member, req, ctx.now());
  const row = await getSave<Obj>(ctx.db, kind, member, saved.id, ctx.now());
  return { created: saved.created, dto: kind.toDTO(row, ctx.config.site.url) };
}

// The routes of one kind of saved thing, at the paths shared/save-kinds.ts gives it (the
// islands call the same): list and create on the collection, the id map, then one save by id.
// The id map comes before /:id/ so that its name is never read as an id.

export interface SaveRouteOptions {
  /** A create with more to it than the store's (event bookmarks: calendar sync). */
  create?: RequestHandler;
  /** PATCH /{id}/: turns the body into the columns to change; no PATCH route without it. */
  patch?: (body: unknown, now: Date) => Record<string, unknown>;
  /** Columns the id map answers beside the save's id (ratings: the rating). */
  idsExtra?: readonly string[];
}

export function saveRouter<DTO>(ctx: AppContext, kind: SaveKind<DTO>, opts: SaveRouteOptions = {}): Router {
  const { path, idsPath } = SAVE_KINDS[kind.name];
  const handlers = saveHandlers(ctx, kind, { idsExtra: opts.idsExtra });
  const router = Router();
  router.get(path, requireMember, handlers.list);
  router.post(path, requireMember, opts.create ?? handlers.create);
  router.get(path + idsPath, requireMember, handlers.ids);
  router.get(`${path}:id/`, requireMember, handlers.retrieve);
  if (opts.patch) router.patch(`${path}:id/`, requireMember, handlers.patch(opts.patch));
  router.delete(`${path}:id/`, requireMember, handlers.remove);
  return router;
}
