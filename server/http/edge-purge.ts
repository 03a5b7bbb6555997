import type { Logger } from '../logger';
import type { ChangeNotices, ContentChange } from '../cache/change-notices';

// The edge in front of the processes (Varnish with the xkey module, deploy/varnish.vcl) keeps
// shared answers under the keys they name (surrogate-keys.ts). A change announced by this
// process drops the answers naming its keys there, and only those: one `PURGE` to each edge
// URL (EDGE_PURGE_URL, space-separated for several Varnish nodes) with `xkey-purge: <keys>`.
// Sent by the process that made the change only (ChangeNotices.afterAnnounce), never by every
// process on each notice, so a change costs each edge one request.
//
// Sent again a moment later (EDGE_PURGE_REPEAT_MS): the edge's next miss may reach another
// process that had not yet heard the notice (LISTEN/NOTIFY takes milliseconds) and still held
// the old page in its own cache; the second purge drops such a copy.
//
// A purge that fails is logged; it never fails the change (the answer's own max-age bounds how
// long the edge serves the old one).

export interface EdgePurgeOptions {
  urls: string[];
  /** A second purge of the same keys this long after the first (0: none). */
  repeatMs: number;
  timeoutMs?: number;
  logger?: Pick<Logger, 'warn' | 'info'>;
  fetchImpl?: typeof fetch;
}

export interface EdgePurger {
  purge(keys: string[]): Promise<void>;
  close(): void;
}

export const EDGE_PURGE_HEADER = 'xkey-purge';

export function createEdgePurger(opts: EdgePurgeOptions): EdgePurger {
  const doFetch = opts.fetchImpl ?? fetch;
  const timers = new Set<NodeJS.Timeout>();
  const once = async (keys: string[]) => {
    await Promise.all(
      opts.urls.map(async (url) => {
        try {
          const res = await doFetch(url, { method: 'PURGE', headers: { [EDGE_PURGE_HEADER]: keys.join(' ') }, signal: AbortSignal.timeout(opts.timeoutMs ?? 2_000) });
          await res.arrayBuffer().catch(() => undefined);
          if (!res.ok) opts.logger?.warn({ url, status: res.status, keys }, 'edge purge refused');
        } catch (err) {
          opts.logger?.warn({ err, url, keys }, 'edge purge failed');
        }
      }),
    );
  };
  return {
    async purge(keys) {
      if (!keys.length || !opts.urls.length) return;
      await once(keys);
      if (opts.repeatMs > 0) {
        const t = setTimeout(() => {
          timers.delete(t);
          void once(keys);
        }, opts.repeatMs);
        t.unref();
        timers.add(t);
      }
    },
    close() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
    },
  };
}

/** Purges at the edge the keys of every change this process announces; answers the unsubscribe. */
export function purgeEdgeOnChange(changes: ChangeNotices, purger: EdgePurger): () => void {
  return changes.afterAnnounce((change: ContentChange) => (change.keys?.length ? purger.purge(change.keys) : Promise.resolve()));
}
