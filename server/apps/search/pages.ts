import { Router } from 'express';
import type { AppContext } from '../../context';
import { addIsland } from '../../views';
import { publicPage, renderView } from '../site-pages/public-page';
import { searchPage } from './page-service';

export function searchPages(ctx: AppContext): Router {
  const router = Router();

  // ## Site search: first results on the server, then the search island takes over
  router.get('/search', ...publicPage('content'), renderView(async (req, res) => {
    const view = await searchPage(ctx, req);
    addIsland(res, 'search', view.islandState);
    return view;
  }));
  return router;
}
