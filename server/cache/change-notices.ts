import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Knex } from 'knex';
import type { Logger } from '../logger';

// Content changed (a story published, corrected or taken down): every process forgets the
// copies it keeps of what readers see, within a moment, through PostgreSQL's LISTEN/NOTIFY, with
// no broker of our own. The process that made the change forgets at once; the others when the
// notice arrives (milliseconds). A process whose listening connection drops may have missed
// notices, so on reconnecting it forgets everything, as if told. On the embedded database only
// one process can run (its lock), so a notice stays in the process.
//
// What a listener forgets is its own business (the page cache, the home's lists, the navbar's
// menus, the shared answers and counts): they subscribe where they are built.

export const CHANGE_CHANNEL = 'guide_content_changed';

export interface ContentChange {
  /** What changed, for the log: 'story:12'. */
  subject: string;
  /** Pages whose copies must go ([]: every shared copy, as after a missed notice). */
  paths: string[];
  /**
   * The Surrogate-Key keys of what changed (http/surrogate-keys.ts: `story-12 section-news home`):
   * the edge drops the answers that name one (http/edge-purge.ts). Unset: the edge is not told.
   */
  keys?: string[];
}

export type ChangeListener = (change: ContentChange) => void;

export interface ChangeNotices {
  /** Tells every process, this one first and at once. */
  announce(change: ContentChange): Promise<void>;
  /** Calls listener for each change made here or announced elsewhere; answers the unsubscribe. */
  subscribe(listener: ChangeListener): () => void;
  /**
   * Calls step for each change announced by this process only (never for another's notice, nor
   * after a reconnect), after every process was told; announce() waits for it. What is done
   * once for the whole deployment goes here (the edge's purge, http/edge-purge.ts). A step that
   * fails is logged, never fails the announce. Answers the unsubscribe.
   */
  afterAnnounce(step: (change: ContentChange) => Promise<void>): () => void;
  /** Server processes on PostgreSQL: listen for other processes' notices (until close). */
  listen(): Promise<void>;
  close(): Promise<void>;
}

const RECONNECT_MIN_MS = 500;
const RECONNECT_MAX_MS = 15_000;

export function createChangeNotices(opts: { db: Knex; databaseUrl?: string; logger?: Pick<Logger, 'warn' | 'info'> }): ChangeNotices {
  const origin = randomUUID();
  const listeners = new Set<ChangeListener>();
  const announcerSteps = new Set<(change: ContentChange) => Promise<void>>();
  let client: pg.Client | null = null;
  let closed = false;
  let listening = false;
  let retryMs = RECONNECT_MIN_MS;
  let retryTimer: NodeJS.Timeout | null = null;

  const tell = (change: ContentChange) => {
    for (const l of listeners) {
      try {
        l(change);
      } catch (err) {
        opts.logger?.warn({ err }, 'a cache listener failed on a change notice');
      }
    }
  };

  async function connect(afterLoss: boolean): Promise<void> {
    const c = new pg.Client({ connectionString: opts.databaseUrl });
    c.on('notification', (msg) => {
      if (msg.channel !== CHANGE_CHANNEL || !msg.payload) return;
      try {
        const { origin: from, subject, paths, keys } = JSON.parse(msg.payload) as { origin: string; subject: string; paths: string[]; keys?: string[] };
        if (from !== origin) {
          tell({ subject: String(subject), paths: Array.isArray(paths) ? paths.map(String) : [], ...(Array.isArray(keys) ? { keys: keys.map(String) } : {}) });
        }
      } catch {
        // Not ours: ignored.
      }
    });
    const lost = (err?: Error) => {
      if (client !== c) return;
      client = null;
      c.removeAllListeners('notification');
      c.end().catch(() => undefined);
      if (closed) return;
      opts.logger?.warn({ err }, 'change notices: the listening connection was lost; reconnecting');
      scheduleReconnect();
    };
    c.on('error', lost);
    c.on('end', () => lost());
    await c.connect();
    await c.query(`LISTEN ${CHANGE_CHANNEL}`);
    client = c;
    retryMs = RECONNECT_MIN_MS;
    // Notices sent while it was away are gone: forget everything, as if each had arrived.
    if (afterLoss) tell({ subject: 'reconnected', paths: [] });
  }

  function scheduleReconnect(): void {
    if (closed || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      connect(true).catch((err) => {
        opts.logger?.warn({ err }, 'change notices: reconnecting failed; trying again');
        retryMs = Math.min(retryMs * 2, RECONNECT_MAX_MS);
        scheduleReconnect();
      });
    }, retryMs);
    retryTimer.unref();
  }

  return {
    async announce(change) {
      tell(change);
      if (opts.databaseUrl) {
        // pg_notify's payload is at most 8000 bytes: a long list of paths becomes "everything".
        let payload = JSON.stringify({ origin, subject: change.subject, paths: change.paths, keys: change.keys });
        if (payload.length > 7500) payload = JSON.stringify({ origin, subject: change.subject, paths: [] });
        await opts.db.raw('select pg_notify(?, ?)', [CHANGE_CHANNEL, payload]);
      }
      for (const step of announcerSteps) {
        try {
          await step(change);
        } catch (err) {
          opts.logger?.warn({ err, subject: change.subject }, 'a step after a change notice failed');
        }
      }
    },
    afterAnnounce(step) {
      announcerSteps.add(step);
      return () => announcerSteps.delete(step);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async listen() {
      if (!opts.databaseUrl || listening) return;
      listening = true;
      try {
        await connect(false);
      } catch (err) {
        opts.logger?.warn({ err }, 'change notices: could not listen yet; retrying');
        scheduleReconnect();
      }
    },
    async close() {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      const c = client;
      client = null;
      await c?.end().catch(() => undefined);
    },
  };
}
