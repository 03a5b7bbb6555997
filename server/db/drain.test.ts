import { openTestDatabase } from '../testing/test-db';
import { IDLE_SETTLE_MS, waitForIdlePool } from './drain';

/** A handler still at work: a transaction that holds its connection until released. */
function busyHandler(db: import('knex').Knex) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let finished = 0;
  const done = db
    .transaction(async (trx) => {
      await trx.raw('select 1');
      await released;
      await trx.raw('select 2');
    })
    .then(() => (finished = Date.now()));
  return { release, done, finished: () => finished };
}

test('waits for a query still running, and for the pool to stay idle a moment', async () => {
  const { db, close } = await openTestDatabase();
  try {
    const handler = busyHandler(db);
    await new Promise((resolve) => setTimeout(resolve, 20));
    setTimeout(handler.release, 150);
    expect(await waitForIdlePool(db, Date.now() + 5_000)).toBe(true);
    expect(handler.finished()).toBeGreaterThan(0);
    expect(Date.now() - handler.finished()).toBeGreaterThanOrEqual(IDLE_SETTLE_MS - 5);
    await handler.done;
  } finally {
    await close();
  }
});

test('gives up at the deadline', async () => {
  const { db, close } = await openTestDatabase();
  try {
    const handler = busyHandler(db);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await waitForIdlePool(db, Date.now() + 100)).toBe(false);
    handler.release();
    await handler.done;
  } finally {
    await close();
  }
});
