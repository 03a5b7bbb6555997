import { Router } from 'express';
import type { AppContext } from '../../context';
import { addIsland } from '../../views';
import { allNeighbourhoods, latestArticles, siteTotals } from './queries';

export function homePages({ db }: AppContext): Router {
  const router = Router();

  router.get('/', async (req, res) => {
    const [articles, totals, neighbourhoods] = await Promise.all([latestArticles(db, 24), siteTotals(db), allNeighbourhoods(db)]);
    addIsland(res, 'navbar', { user: req.user ? { id: req.user.id, full_name: req.user.full_name, email: req.user.email } : null });
    res.render('home/index.njk', { articles, totals, neighbourhoods, canonicalUrl: res.app.locals.ctx.config.site.url + '/' });
  });

  router.get('/about', (_req, res) => {
    res.render('pages/about.njk', { pageTitle: 'About and data credits' });
  });

  return router;
}
