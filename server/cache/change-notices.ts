import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Logger } from '../logger';
import { createNotifyListener } from '../db/notify-listener';

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

export function createChangeNotices(opts: { db: Knex; databaseUrl?: string; logger?: Pick<Logger, 'warn' | 'info'> }): ChangeNotices {
  const origin = randomUUID();
  const listeners = new Set<ChangeListener>();
  const announcerSteps = new Set<(change: ContentChange) => Promise<void>>();

  const tell = (change: ContentChange) => {
    for (const l of listeners) {
      try {
        l(change);
      } catch (err) {
        opts.logger?.warn({ err }, 'a cache listener failed on a change notice');
      }
    }
  };

  const listening = opts.databaseUrl
    ? createNotifyListener({
        databaseUrl: opts.databaseUrl,
        channel: CHANGE_CHANNEL,
        what: 'change notices',
        logger: opts.logger,
        onNotice(payload) {
          try {
            const { origin: from, subject, paths, keys } = JSON.parse(payload) as { origin: string; subject: string; paths: string[]; keys?: string[] };
            if (from !== origin) {
              tell({ subject: String(subject), paths: Array.isArray(paths) ? paths.map(String) : [], ...(Array.isArray(keys) ? { keys: keys.map(String) } : {}) });
            }
          } catch {
            // Not ours: ignored.
          }
        },
        // Notices sent while it was away are gone: forget everything, as if each had arrived.
        onReconnected: () => tell({ subject: 'reconnected', paths: [] }),
      })
    : null;

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
      await listening?.start();
    },
    async close() {
      await listening?.close();
    },
  };
}
