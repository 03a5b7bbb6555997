import { Router } from 'express';
import type { AppContext } from '../../context';
import { requireMember } from '../../http/auth-guards';
import { saveHandlers } from '../saves/handlers';
import { parseTodoPatch, todosKind } from './kind';

// ## To-do places (spec 1 §7): GET ?completed=0 (default, 100 a page) or 1 (15 a page);
// POST {listing}; PATCH {is_done: true} moves it to the completed list; DELETE from either.
export function todosApi(ctx: AppContext): Router {
  const router = Router();
  const todos = saveHandlers(ctx, todosKind);
  router.get('/api/v2/todos/', requireMember, todos.list);
  router.post('/api/v2/todos/', requireMember, todos.create);
  router.get('/api/v2/todos/listing_ids/', requireMember, todos.ids);
  router.get('/api/v2/todos/:id/', requireMember, todos.retrieve);
  router.patch('/api/v2/todos/:id/', requireMember, todos.patch(parseTodoPatch));
  router.delete('/api/v2/todos/:id/', requireMember, todos.remove);
  return router;
}
