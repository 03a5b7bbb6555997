import type { Router } from 'express';
import type { AppContext } from '../../context';
import { saveRouter } from '../saves/api';
import { parseRatingPatch } from './ratings-kind';

// ## Rated places (spec 1 §7): POST {listing, rating 1–5}; PATCH /{id}/ {rating}. listing_ids
// answers listing id → {id, rating}, not just the id, so a page can draw the member's stars
// and choose between POST and PATCH from one request.
export function ratingsApi(ctx: AppContext): Router {
  return saveRouter(ctx, ctx.saveKinds.ratings, { patch: parseRatingPatch, idsExtra: ['rating'] });
}
