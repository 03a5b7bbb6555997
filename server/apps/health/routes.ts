import { Router } from 'express';
import type { AppContext } from '../../context';

// GET /healthz: 200 when the database answers, 503 when it does not. Mounted before sessions
// and logging so probes cost one trivial query.
export function healthRouter({ db }: AppContext): Router {
  const router = Router();
  router.get('/healthz', async (_req, res) => {
    res.set('Cache-Control', 'no-store');
    try {
      await Promise.race([
        db.raw('select 1'),
        new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 2000).unref()),
      ]);
      res.json({ status: 'ok', database: 'ok' });
    } catch {
      res.status(503).json({ status: 'unavailable', database: 'unreachable' });
    }
  });
  return router;
}
