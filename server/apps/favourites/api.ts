import { Router } from 'express';
import type { AppContext } from '../../context';
import { requireMember } from '../../http/auth-guards';
import { saveHandlers } from '../saves/handlers';
import { favouritesKind } from './kind';

// ## Favourite places (spec 1 §7): GET is 15 a page, newest first; POST {listing} answers 201,
// or 200 with the existing favourite; listing_ids maps listing id → favourite id.
export function favouritesApi(ctx: AppContext): Router {
  const router = Router();
  const favourites = saveHandlers(ctx, favouritesKind);
  router.get('/api/v2/favourites/', requireMember, favourites.list);
  router.post('/api/v2/favourites/', requireMember, favourites.create);
  router.get('/api/v2/favourites/listing_ids/', requireMember, favourites.ids);
  router.get('/api/v2/favourites/:id/', requireMember, favourites.retrieve);
  router.delete('/api/v2/favourites/:id/', requireMember, favourites.remove);
  return router;
}
