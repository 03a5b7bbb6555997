import { Router } from 'express';
import type { AppContext } from '../../context';
import { requireMember } from '../../http/auth-guards';
import { saveHandlers } from '../saves/handlers';
import { parseRatingPatch, ratingsKind } from './kind';

// ## Rated places (spec 1 §7): POST {listing, rating 1–5}; PATCH /{id}/ {rating}. listing_ids
// answers listing id → {id, rating}, not just the id, so a page can draw the member's stars
// and choose between POST and PATCH from one request.
export function ratingsApi(ctx: AppContext): Router {
  const router = Router();
  const ratings = saveHandlers(ctx, ratingsKind, { idsExtra: ['rating'] });
  router.get('/api/v2/ratings/', requireMember, ratings.list);
  router.post('/api/v2/ratings/', requireMember, ratings.create);
  router.get('/api/v2/ratings/listing_ids/', requireMember, ratings.ids);
  router.get('/api/v2/ratings/:id/', requireMember, ratings.retrieve);
  router.patch('/api/v2/ratings/:id/', requireMember, ratings.patch(parseRatingPatch));
  router.delete('/api/v2/ratings/:id/', requireMember, ratings.remove);
  return router;
}
