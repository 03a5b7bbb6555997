import { Router } from 'express';
import type { AppContext } from '../../context';
import { page } from '../../http/pages/page-view';
import { newsletterFormPage, submitNewsletterForm } from './page-service';
import { submitUnsubscribe, unsubscribePage } from './unsubscribe-page';

export function newslettersPages(ctx: AppContext): Router {
  const router = Router();

  // ## Newsletters page: the full form, working without JavaScript
  router.get('/newsletters/', page('private', (req) => newsletterFormPage(ctx, req)));
  router.post('/newsletters/', page('private', (req, res) => submitNewsletterForm(ctx, req, res)));
  // ## Unsubscribe links of newsletter emails: GET asks, POST (the form or RFC 8058's one-click) acts
  router.get('/newsletters/unsubscribe/', page('private', (req, res) => unsubscribePage(ctx, req, res)));
  router.post('/newsletters/unsubscribe/', page('private', (req, res) => submitUnsubscribe(ctx, req, res)));
  return router;
}
