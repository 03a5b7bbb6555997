import type { ClientRateLimitInfo, Options, Store } from 'express-rate-limit';
import type { Db } from '../db';

// An express-rate-limit Store that keeps its counters in the rate_limits table, so every
// process of a deployment draws on the same budget (in memory, N processes would give an
// attacker N times the limit). Windows are measured by the database clock, now(), which all
// processes share, and each statement is atomic, so concurrent requests never lose a hit.

/** How often one store deletes expired rows (of every limiter). */
const SWEEP_EVERY_MS = 60_000;

/** reset_at as epoch milliseconds: a float8 comes back as a number from pg and PGlite alike. */
const RESET_MS = `(extract(epoch from reset_at) * 1000)::float8 as reset_ms`;

interface CounterRow {
  hits: number;
  reset_ms: number;
}

function counterInfo(row: CounterRow): ClientRateLimitInfo {
  return { totalHits: Number(row.hits), resetTime: new Date(Number(row.reset_ms)) };
}

export class DatabaseRateLimitStore implements Store {
  /** Hits counted through one instance are seen by every other: they live in the database. */
  readonly localKeys = false;
  private windowMs = 60_000; // express-rate-limit's default, until init() passes the limiter's
  private lastSweep = 0;

  /** `prefix` names the limiter: two limiters (with their own windows) never share a row. */
  constructor(
    private readonly db: Db,
    readonly prefix: string,
  ) {}

  init(options: Options): void {
    this.windowMs = options.windowMs;
  }

  async get(key: string): Promise<ClientRateLimitInfo | undefined> {
    const { rows } = await this.db.raw<{ rows: CounterRow[] }>(
      `select hits, ${RESET_MS} from rate_limits where key = ? and reset_at > now()`,
      [this.prefix + key],
    );
    return rows[0] ? counterInfo(rows[0]) : undefined;
  }

  /** One statement: counts the hit, or starts a new window when the stored one has ended. */
  async increment(key: string): Promise<ClientRateLimitInfo> {
    this.sweepNowAndThen();
    const { rows } = await this.db.raw<{ rows: CounterRow[] }>(
      `insert into rate_limits as r (key, hits, reset_at)
       values (?, 1, now() + ?::float8 * interval '1 millisecond')
       on conflict (key) do update set
         hits = case when r.reset_at <= now() then 1 else r.hits + 1 end,
         reset_at = case when r.reset_at <= now() then excluded.reset_at else r.reset_at end
       returning hits, ${RESET_MS}`,
      [this.prefix + key, this.windowMs],
    );
    return counterInfo(rows[0]);
  }

  async decrement(key: string): Promise<void> {
    await this.db.raw('update rate_limits set hits = hits - 1 where key = ? and hits > 0', [this.prefix + key]);
  }

  async resetKey(key: string): Promise<void> {
    await this.db.raw('delete from rate_limits where key = ?', [this.prefix + key]);
  }

  /** Deletes expired rows at most once a minute, without making the request wait for it. */
  private sweepNowAndThen(): void {
    const now = Date.now();
    if (now - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = now;
    // A failed sweep only leaves the rows for the next one; increment restarts expired windows.
    void this.db.raw('delete from rate_limits where reset_at < now()').catch(() => {});
  }
}
