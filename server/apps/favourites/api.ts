import type { Router } from 'express';
import type { AppContext } from '../../context';
import { saveRouter } from '../saves/api';

// ## Favourite places (spec 1 §7): GET is 15 a page, newest first; POST {listing} answers 201,
// or 200 with the existing favourite; listing_ids maps listing id → favourite id.
export function favouritesApi(ctx: AppContext): Router {
  return saveRouter(ctx, ctx.saveKinds.favourites);
}
