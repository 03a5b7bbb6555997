import type { Router } from 'express';
import type { AppContext } from '../../context';
import { saveRouter } from '../saves/api';
import { parseTodoPatch } from './todos-kind';

// ## To-do places (spec 1 §7): GET ?completed=0 (default, 100 a page) or 1 (15 a page);
// POST {listing}; PATCH {is_done: true} moves it to the completed list; DELETE from either.
export function todosApi(ctx: AppContext): Router {
  return saveRouter(ctx, ctx.saveKinds.todos, { patch: parseTodoPatch });
}
