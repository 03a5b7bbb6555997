import { Router } from 'express';
import type { AppContext } from '../../context';
import { publicPage, renderView } from '../site-pages/public-page';
import { newsletterFormPage, submitNewsletterForm } from './page-service';

export function newslettersPages(ctx: AppContext): Router {
  const router = Router();
  const form = publicPage('form');

  // ## Newsletters page: the full form, working without JavaScript
  router.get('/newsletters/', ...form, renderView((req) => newsletterFormPage(ctx, req)));
  router.post('/newsletters/', ...form, renderView((req, res) => submitNewsletterForm(ctx, req, res)));
  return router;
}
