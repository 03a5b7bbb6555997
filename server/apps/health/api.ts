import { Router } from 'express';
import type { AppContext } from '../../context';
import { pingDatabase } from './queries';

// GET /healthz: 200 when the database answers, 503 when it does not. Mounted before sessions
// and logging so probes cost one trivial query. With a replica it also says how the replica
// is (the monitor's last check, no query of its own): streaming, lagging past the bound, or
// down, and its lag. Reads then go to the primary, so the site is still up: still 200.
export function healthRouter({ db, replica }: Pick<AppContext, 'db' | 'replica'>): Router {
  const router = Router();
  router.get('/healthz', async (_req, res) => {
    res.set('Cache-Control', 'no-store');
    const replicaReport = replica ? { replica: replicaStatus(replica) } : {};
    try {
      await Promise.race([
        pingDatabase(db),
        new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 2000).unref()),
      ]);
      res.json({ status: 'ok', database: 'ok', ...replicaReport });
    } catch {
      res.status(503).json({ status: 'unavailable', database: 'unreachable', ...replicaReport });
    }
  });
  return router;
}

function replicaStatus(replica: NonNullable<AppContext['replica']>) {
  const { state, lagSeconds, lagBytes, reason } = replica.status();
  return {
    state,
    lag_seconds: lagSeconds,
    lag_bytes: lagBytes,
    max_lag_seconds: replica.maxLagMs / 1000,
    ...(reason && state !== 'streaming' ? { reason } : {}),
  };
}
