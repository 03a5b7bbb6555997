import { Router } from 'express';
import { validate } from '../../http/validate';
import { guestSubscriptionSchema } from './schemas';
import type { NewslettersService } from './service';

export function newslettersApi(newsletters: NewslettersService): Router {
  const router = Router();

  // ## Guest newsletters (spec 2 §7): 201 when new, 200 when updated; errors name the field.
  router.post('/api/v2/profiles/guest-newsletters/', async (req, res) => {
    const { subscription, created } = await newsletters.subscribeGuest(validate(guestSubscriptionSchema, req.body));
    res.status(created ? 201 : 200).json(subscription);
  });
  return router;
}
