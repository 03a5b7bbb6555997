import { randomUUID } from 'node:crypto';
import { ServerResponse, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { RequestHandler } from 'express';
import { Hocuspocus, type Document } from '@hocuspocus/server';
import { WebSocketServer } from 'ws';
import * as Y from 'yjs';
import { applyAwarenessUpdate, encodeAwarenessUpdate } from 'y-protocols/awareness';
import type { AppContext, SharedStories } from '../../context';
import { originTrusted } from '../../http/csrf';
import { createNotifyListener, type NotifyListener } from '../../db/notify-listener';
import { LIVE_EDITING, liveDocumentName, storyIdOfLiveDocument, type NewsroomRole, type StoryDoc } from '../../../shared/newsroom';
import { createPassport, sessionMiddleware } from '../accounts/session';
import { createNewsroomService, type NewsroomActor } from '../newsroom/service';
import { appendUpdate, compactDocument, createDocument, LIVE_CHANNEL, NOTICE_INLINE_MAX, notifyLive, storedDocument, updateById, updateCount, updatesAfter } from './queries';
import { mergedState, replaceBody, SharedDocumentGuard, sharedDocumentFrom, storyBodyOf } from './shared-document';
import { refusedAwareness, syncUpdateOf } from './protocol-messages';

// Live co-editing (issue 42): Hocuspocus serves each story's body as a shared Yjs document over
// a websocket in this process, under the newsroom's rules (who may edit which story), and keeps
// it in PostgreSQL (queries.ts) so any process can serve any editor:
// - every update a client sends is checked against the story schema before it is applied
//   (shared-document.ts); a refused one closes the socket and nothing of it is kept;
// - every applied update is appended to the database as it arrives and announced with
//   LISTEN/NOTIFY; the other processes that have the story open apply it, and their editors
//   see it (milliseconds). A process that stops loses nothing: the updates are stored, and the
//   editors' clients reconnect and resend what the server lacks (the Yjs sync);
// - a couple of seconds after the last change, the body is written into the story through the
//   newsroom (articles.doc, a published story's pending changes), so revisions, checks, preview,
//   publishing and search work from the story as before.

/** Updates appended beyond this many are folded into the state when the body is next stored. */
const COMPACT_AFTER_UPDATES = 200;
/** Changes the server makes (a restore, a save through the API): stored and announced as an editor's are. */
const SERVER_CHANGE = { socketId: 'server', context: {} };

interface LiveContext {
  actor: NewsroomActor;
}

interface OpenDocument {
  storyId: number;
  doc: Document;
  /** The newest stored update read when the document was loaded. */
  loadedId: number;
  /** Checks clients' updates on a copy (made once the stored document is loaded). */
  guard: SharedDocumentGuard | null;
}

interface Notice {
  /** The process that applied it already (its own editors' updates). */
  o: string;
  s: number;
  /** The stored update's id; absent for an awareness update (who is in, carets: never stored). */
  i?: number;
  /** The update in base64 when it fits a notice; else (null) read by id. */
  u?: string | null;
}

/** Awareness states applied from another process: shown to this process's editors, never sent back. */
const RELAYED = 'relayed';

function refuseUpgrade(socket: Duplex, status: number, text: string): void {
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`);
  socket.destroy();
}

/** Until every document is unloaded (its last socket gone and its body stored), at most `ms`. */
async function waitForUnload(hocuspocus: Hocuspocus, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (hocuspocus.getDocumentsCount() > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
}

async function runHandlers(handlers: RequestHandler[], req: IncomingMessage): Promise<void> {
  // The session middleware reads the cookie and the store; nothing is ever sent on this response.
  const res = new ServerResponse(req);
  for (const handler of handlers) {
    await new Promise<void>((resolve, reject) => {
      void handler(req as never, res as never, (err?: unknown) => (err ? reject(err) : resolve()));
    });
  }
}

export function createSharedStories(getCtx: () => AppContext): SharedStories {
  const processId = randomUUID();
  const open = new Map<string, OpenDocument>();
  let server: ReturnType<typeof startServer> | null = null;
  let closed = false;

  // On the embedded database there is one process: nobody to tell.
  const announceAs = (ctx: AppContext, origin: string) => (ctx.dbKind === 'postgres' ? { origin } : null);

  function startServer(ctx: AppContext) {
    const newsroom = createNewsroomService(ctx);
    const trusted = [new URL(ctx.config.site.url).origin, ...ctx.config.csrfTrustedOrigins];
    const sessionHandlers = [sessionMiddleware(ctx.config, ctx.db, ctx.logger), createPassport(ctx.db).session()];
    const wss = new WebSocketServer({ noServer: true, maxPayload: LIVE_EDITING.maxMessageBytes });

    /** The database's updates after `afterId`, applied (they come as another process's: announced to nobody). */
    async function catchUp(entry: OpenDocument, afterId: number): Promise<void> {
      for (const { update } of await updatesAfter(ctx.db, entry.storyId, afterId)) Y.applyUpdate(entry.doc, update);
    }

    const hocuspocus = new Hocuspocus({
      quiet: true,
      debounce: LIVE_EDITING.storeDebounceMs,
      maxDebounce: LIVE_EDITING.storeMaxMs,

      async onAuthenticate({ documentName, context }) {
        const { actor } = context as LiveContext;
        const storyId = storyIdOfLiveDocument(documentName);
        if (!storyId) throw { reason: 'There is no such story.' };
        try {
          await newsroom.get(actor, storyId);
        } catch (err) {
          throw { reason: (err as Error).message || 'You may not edit this story.' };
        }
      },

      async onLoadDocument({ documentName, document, context }) {
        const storyId = storyIdOfLiveDocument(documentName)!;
        // Registered first: another process's updates announced while this one loads are applied too.
        const entry: OpenDocument = { storyId, doc: document, loadedId: 0, guard: null };
        open.set(documentName, entry);
        let stored = await storedDocument(ctx.db, storyId);
        if (!stored) {
          const story = await newsroom.get((context as LiveContext).actor, storyId);
          await createDocument(ctx.db, storyId, Y.encodeStateAsUpdate(sharedDocumentFrom(story.fields.doc)));
          stored = (await storedDocument(ctx.db, storyId))!;
        }
        Y.applyUpdate(document, stored.state);
        for (const update of stored.updates) Y.applyUpdate(document, update);
        entry.loadedId = stored.lastId;
        entry.guard = new SharedDocumentGuard(document);
        // Who is in the story and where their carets are: this process's editors' awareness
        // goes to the other processes (a state another process timed out is not news).
        if (relay) {
          document.awareness.on('update', ({ added, updated, removed }: { added: number[]; updated: number[]; removed: number[] }, origin: unknown) => {
            if (origin === RELAYED || origin === 'timeout') return;
            const update = encodeAwarenessUpdate(document.awareness, [...added, ...updated, ...removed]);
            const payload = JSON.stringify({ o: processId, s: storyId, u: Buffer.from(update).toString('base64') } satisfies Notice);
            // A larger one than pg_notify carries is not relayed (a state is under 1 KB).
            if (payload.length <= NOTICE_INLINE_MAX) void notifyLive(ctx.db, payload).catch((err: unknown) => ctx.logger.warn({ err, story: storyId }, 'live editing relay: an awareness update was not sent'));
          });
        }
      },

      async afterLoadDocument({ documentName }) {
        const entry = open.get(documentName);
        // What was appended between the load's read and now (its notice may have come before the document was open).
        if (entry) await catchUp(entry, entry.loadedId);
      },

      async afterUnloadDocument({ documentName }) {
        open.get(documentName)?.guard?.destroy();
        open.delete(documentName);
      },

      // Every message is checked before Hocuspocus applies it. A refused one is dropped and the
      // client's socket closed (Hocuspocus alone would close only its document's connection).
      async beforeHandleMessage({ update: message, document, context, connection }) {
        const { actor } = context as LiveContext;
        const sync = syncUpdateOf(message);
        const guard = open.get(document.name)?.guard;
        const why = sync ? (guard ? guard.refused(sync, actor) : 'The document is not open.') : refusedAwareness(message, actor.name);
        if (!why) return;
        ctx.logger.warn({ story: document.name, member: actor.id, why }, 'live editing: a message was refused; socket closed');
        connection.webSocket.close(LIVE_EDITING.closeOutsideSchema, 'outside-schema');
        throw { code: LIVE_EDITING.closeOutsideSchema, reason: 'outside-schema' };
      },

      async onChange({ documentName, update, transactionOrigin }) {
        // Updates applied on load or from another process have no origin: stored already.
        if (!transactionOrigin) return;
        const entry = open.get(documentName);
        if (!entry) return;
        try {
          await appendUpdate(ctx.db, entry.storyId, update, announceAs(ctx, processId));
        } catch (err) {
          // The editors' clients still hold it and resend it to whichever process they reach next.
          ctx.logger.error({ err, story: entry.storyId }, 'live editing: an update could not be stored');
        }
      },

      async onStoreDocument({ documentName, document, context }) {
        const entry = open.get(documentName);
        const actor = (context as Partial<LiveContext>).actor;
        if (!entry || !actor) return;
        await storeBody(entry, document, actor);
      },
    });

    async function storeBody(entry: OpenDocument, document: Y.Doc, actor: NewsroomActor): Promise<void> {
      const body = storyBodyOf(document);
      if ('error' in body) {
        ctx.logger.error({ story: entry.storyId, why: body.error }, 'live editing: the shared document is not a story body; not stored');
        return;
      }
      try {
        await newsroom.saveSharedBody(actor, entry.storyId, body.doc);
        if ((await updateCount(ctx.db, entry.storyId)) > COMPACT_AFTER_UPDATES) await compactDocument(ctx.db, entry.storyId, mergedState, ctx.now());
      } catch (err) {
        ctx.logger.error({ err, story: entry.storyId }, 'live editing: the body could not be written into the story');
      }
    }

    const relay: NotifyListener | null =
      ctx.dbKind === 'postgres' && ctx.config.databaseUrl
        ? createNotifyListener({
            databaseUrl: ctx.config.databaseUrl,
            channel: LIVE_CHANNEL,
            what: 'live editing relay',
            logger: ctx.logger,
            onNotice(payload) {
              let n: Notice;
              try {
                n = JSON.parse(payload) as Notice;
              } catch {
                return;
              }
              if (n.o === processId || !Number.isInteger(n.s)) return;
              const entry = open.get(liveDocumentName(n.s));
              if (!entry) return;
              if (n.i === undefined) {
                if (typeof n.u === 'string') applyAwarenessUpdate(entry.doc.awareness, new Uint8Array(Buffer.from(n.u, 'base64')), RELAYED);
                return;
              }
              if (!Number.isInteger(n.i)) return;
              if (typeof n.u === 'string') return void Y.applyUpdate(entry.doc, new Uint8Array(Buffer.from(n.u, 'base64')));
              void updateById(ctx.db, n.i!)
                .then((row) => row && Y.applyUpdate(entry.doc, row.update))
                .catch((err: unknown) => ctx.logger.error({ err, story: n.s }, 'live editing relay: an update could not be read'));
            },
            // Notices were missed: every open document reads what is stored (applying twice changes nothing).
            onReconnected() {
              for (const entry of open.values()) void catchUp(entry, 0).catch((err: unknown) => ctx.logger.error({ err }, 'live editing relay: catching up failed'));
            },
          })
        : null;
    const relayStarted = relay?.start();

    return {
      async handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
        const origin = req.headers.origin;
        if (!origin || !originTrusted(origin, trusted)) return refuseUpgrade(socket, 403, 'Forbidden: the Origin is not this site.');
        try {
          await runHandlers(sessionHandlers, req);
        } catch (err) {
          ctx.logger.error({ err }, 'live editing: reading the session failed');
          return refuseUpgrade(socket, 503, 'Service Unavailable');
        }
        const user = (req as IncomingMessage & { user?: Express.User }).user;
        if (!user) return refuseUpgrade(socket, 401, 'Unauthorized: sign in.');
        if (!user.newsroom_role) return refuseUpgrade(socket, 403, 'Forbidden: the newsroom is for staff with a role.');
        const actor: NewsroomActor = { id: user.id, email: user.email, role: user.newsroom_role as NewsroomRole, name: user.full_name || user.email };
        await relayStarted;
        wss.handleUpgrade(req, socket, head, (ws) => hocuspocus.handleConnection(ws, req, { actor } satisfies LiveContext));
      },

      async replace(entry: OpenDocument, doc: StoryDoc): Promise<void> {
        replaceBody(entry.doc, doc, SERVER_CHANGE);
      },

      async close(): Promise<void> {
        // Each open body written into its story now, then the sockets closed: the editors'
        // clients reconnect to another process (their unacknowledged changes go with them).
        await Promise.all(
          [...open.values()].map(async (entry) => {
            const someone = [...entry.doc.getConnections()].map((c) => (c.context as Partial<LiveContext>).actor).find(Boolean);
            if (someone) await storeBody(entry, entry.doc, someone);
          }),
        );
        // 1012, "service restart": the clients reconnect (to another process behind the balancer).
        for (const ws of wss.clients) ws.close(1012, 'restarting');
        wss.close();
        await waitForUnload(hocuspocus, 5_000);
        for (const ws of wss.clients) ws.terminate();
        await relay?.close();
      },
    };
  }

  /** A body replaced while no editor of this process has the story open: straight into the stored document. */
  async function replaceStored(ctx: AppContext, storyId: number, doc: StoryDoc): Promise<void> {
    const stored = await storedDocument(ctx.db, storyId);
    if (!stored) return; // the shared document is made from the story when first opened
    const ydoc = new Y.Doc();
    Y.applyUpdate(ydoc, mergedState(stored.state, stored.updates));
    let change: Uint8Array | null = null;
    ydoc.on('update', (u: Uint8Array) => void (change = change ? Y.mergeUpdates([change, u]) : u));
    replaceBody(ydoc, doc, SERVER_CHANGE);
    ydoc.destroy();
    // Announced as from nobody: every process with the story open applies it.
    if (change) await appendUpdate(ctx.db, storyId, change, announceAs(ctx, ''));
  }

  return {
    async currentBody(storyId) {
      const ctx = getCtx();
      const stored = await storedDocument(ctx.db, storyId);
      if (!stored) return null;
      const ydoc = new Y.Doc();
      Y.applyUpdate(ydoc, mergedState(stored.state, stored.updates));
      // What this process applied and has not finished appending yet.
      const entry = open.get(liveDocumentName(storyId));
      if (entry) Y.applyUpdate(ydoc, Y.encodeStateAsUpdate(entry.doc));
      const body = storyBodyOf(ydoc);
      ydoc.destroy();
      if ('error' in body) {
        ctx.logger.error({ story: storyId, why: body.error }, 'live editing: the shared document is not a story body');
        return null;
      }
      return body.doc;
    },
    async replaceBody(storyId, doc) {
      if (closed) return;
      const entry = open.get(liveDocumentName(storyId));
      if (entry && server) return server.replace(entry, doc);
      await replaceStored(getCtx(), storyId, doc);
    },
    handleUpgrade(req, socket, head) {
      if (closed) return refuseUpgrade(socket, 503, 'Service Unavailable');
      const url = new URL(req.url ?? '/', 'http://localhost');
      // With or without its trailing slash: Hocuspocus's provider drops it unless told not to.
      if (url.pathname.replace(/\/$/, '') !== LIVE_EDITING.path.replace(/\/$/, '')) return refuseUpgrade(socket, 404, 'Not Found');
      server ??= startServer(getCtx());
      server.handleUpgrade(req, socket, head).catch((err: unknown) => {
        getCtx().logger.error({ err }, 'live editing: the upgrade failed');
        if (!socket.destroyed) refuseUpgrade(socket, 500, 'Internal Server Error');
      });
    },
    async close() {
      closed = true;
      await server?.close();
    },
  };
}
