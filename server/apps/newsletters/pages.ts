import { Router } from 'express';
import type { AppContext } from '../../context';
import { page } from '../../http/pages/page-view';
import { newsletterFormPage, submitNewsletterForm } from './page-service';

export function newslettersPages(ctx: AppContext): Router {
  const router = Router();

  // ## Newsletters page: the full form, working without JavaScript
  router.get('/newsletters/', page('private', (req) => newsletterFormPage(ctx, req)));
  router.post('/newsletters/', page('private', (req, res) => submitNewsletterForm(ctx, req, res)));
  return router;
}
