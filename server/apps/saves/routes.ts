import { Router, type RequestHandler } from 'express';
import type { AppContext } from '../../context';
import { requireMember } from '../../http/auth-guards';
import { SAVE_KINDS } from '../../../shared/save-kinds';
import { saveHandlers } from './handlers';
import type { SaveKind } from './kind';

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
