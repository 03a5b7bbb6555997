import { Router } from 'express';
import type { AppContext } from '../../context';
import { page } from '../../http/pages/page-view';
import { searchPage } from './page-service';

export function searchPages(ctx: AppContext): Router {
  const router = Router();

  // ## Site search: first results on the server, then the search island takes over
  router.get('/search', page('shared-for-guests', (req, res) => searchPage(ctx, req, res)));
  return router;
}
