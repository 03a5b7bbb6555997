import pg from 'pg';
import type { Logger } from '../logger';

// One connection LISTENing on one PostgreSQL channel, kept open: a lost connection is opened
// again with backoff, and since notices sent meanwhile are gone, the owner is told it
// reconnected (to forget or reload what a missed notice would have changed). The content
// change notices (cache/change-notices.ts) and live co-editing's relay between processes
// (apps/co-editing) each keep one.

const RECONNECT_MIN_MS = 500;
const RECONNECT_MAX_MS = 15_000;

export interface NotifyListenerOptions {
  databaseUrl: string;
  channel: string;
  /** Each notice's payload, as sent. */
  onNotice(payload: string): void;
  /** The connection was lost and is back: notices sent meanwhile were missed. */
  onReconnected(): void;
  /** For the log: 'change notices'. */
  what: string;
  logger?: Pick<Logger, 'warn' | 'info'>;
}

export interface NotifyListener {
  /** Listens until close; a first failure is logged and retried, never thrown. */
  start(): Promise<void>;
  close(): Promise<void>;
}

export function createNotifyListener(opts: NotifyListenerOptions): NotifyListener {
  if (!/^[a-z_][a-z0-9_]*$/.test(opts.channel)) throw new Error(`not a channel name: ${opts.channel}`);
  let client: pg.Client | null = null;
  let closed = false;
  let started = false;
  let retryMs = RECONNECT_MIN_MS;
  let retryTimer: NodeJS.Timeout | null = null;

  async function connect(afterLoss: boolean): Promise<void> {
    const c = new pg.Client({ connectionString: opts.databaseUrl });
    c.on('notification', (msg) => {
      if (msg.channel === opts.channel && msg.payload) opts.onNotice(msg.payload);
    });
    const lost = (err?: Error) => {
      if (client !== c) return;
      client = null;
      c.removeAllListeners('notification');
      c.end().catch(() => undefined);
      if (closed) return;
      opts.logger?.warn({ err }, `${opts.what}: the listening connection was lost; reconnecting`);
      scheduleReconnect();
    };
    c.on('error', lost);
    c.on('end', () => lost());
    await c.connect();
    await c.query(`LISTEN ${opts.channel}`);
    if (closed) {
      await c.end().catch(() => undefined);
      return;
    }
    client = c;
    retryMs = RECONNECT_MIN_MS;
    if (afterLoss) opts.onReconnected();
  }

  function scheduleReconnect(): void {
    if (closed || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      connect(true).catch((err) => {
        opts.logger?.warn({ err }, `${opts.what}: reconnecting failed; trying again`);
        retryMs = Math.min(retryMs * 2, RECONNECT_MAX_MS);
        scheduleReconnect();
      });
    }, retryMs);
    retryTimer.unref();
  }

  return {
    async start() {
      if (started) return;
      started = true;
      try {
        await connect(false);
      } catch (err) {
        opts.logger?.warn({ err }, `${opts.what}: could not listen yet; retrying`);
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
