import type { Knex } from 'knex';

// On SIGTERM the HTTP server closes once every connection has, but a handler whose client
// hung up mid-request is still at work, and destroying the pool under it aborts its queries
// (a logged "request failed", a transaction rolled back half-way through its handler). So
// the pool is closed only once no query has been running or waiting for a connection for a
// short while (a handler pauses between two queries), or at the deadline.

const POLL_MS = 10;
/** How long the pool must stay idle: longer than a handler's pause between two queries. */
export const IDLE_SETTLE_MS = 50;

interface PoolCounts {
  numUsed(): number;
  numPendingAcquires(): number;
}

/** Resolves true once the pool is idle, false if the deadline (a Date.now() time) came first. */
export async function waitForIdlePool(db: Knex, deadline: number): Promise<boolean> {
  const pool = (db.client as { pool?: PoolCounts }).pool;
  if (!pool) return true;
  let idleSince: number | null = null;
  for (;;) {
    const now = Date.now();
    const busy = pool.numUsed() + pool.numPendingAcquires() > 0;
    if (busy) idleSince = null;
    else if (idleSince === null) idleSince = now;
    else if (now - idleSince >= IDLE_SETTLE_MS) return true;
    if (now >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
