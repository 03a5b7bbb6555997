import { HocuspocusProvider, HocuspocusProviderWebsocket, WebSocketStatus } from '@hocuspocus/provider';
import * as Y from 'yjs';
import { LIVE_EDITING, liveDocumentName } from '../../../shared/newsroom';
import type { LiveMode, LiveState } from '../slice';
import type { LivePeer } from '../store';
import { liveBinding, type LiveUser } from './binding';
import type { CommentMember } from './comment-model';
import { LiveComments } from './comments';
import { BODY_FRAGMENT, encodeBody, mergeBody } from './shared-state';

// One story's shared document over the newsroom's websocket (Hocuspocus; the server is
// server/apps/co-editing/). The session says when the body can be bound (the first sync, or at
// once when this device kept the body's state, which it merges first), whether the link is up,
// whether the server lacks some of the body's changes, who is in the story, and when the link
// is refused for good (4403: not this member's story; 4400: a change outside the schema).

/** Same host as the page, ws: or wss: after its protocol. */
export const liveUrl = (loc: Pick<Location, 'protocol' | 'host'>) => `${loc.protocol === 'https:' ? 'wss:' : 'ws:'}//${loc.host}${LIVE_EDITING.path}`;

export interface LiveSessionOptions {
  storyId: number;
  user: LiveUser;
  /** The body's state this device kept (local-copy.ts `yState`), merged before anything else. */
  deviceState: string | null;
  url: string;
  /** How long to wait for the first sync before giving up on the link (no kept state). */
  firstSyncMs?: number;
  /** A body change waits this long unacknowledged before the status line says "Saving…". */
  unsyncedAfterMs?: number;
  WebSocketPolyfill?: unknown;
  /** The body can be bound now (once). */
  onReady: () => void;
  /** The link is given up (once); the body is saved as before. */
  onFail: (mode: Extract<LiveMode, 'refused' | 'unavailable'>) => void;
  onState: (state: Partial<LiveState>) => void;
  onPeers: (peers: LivePeer[]) => void;
}

export interface LiveSession {
  /** The plugins and document to bind the body to (after onReady). */
  binding(): ReturnType<typeof liveBinding>;
  /** The story's comments in the shared document, as `member` reads and changes them. */
  comments(member: CommentMember): LiveComments;
  encode(): string;
  unsynced(): boolean;
  destroy(): void;
}

export function openLiveSession(opts: LiveSessionOptions): LiveSession {
  const doc = new Y.Doc();
  const fragment = doc.getXmlFragment(BODY_FRAGMENT);
  // A kept state that does not read is dropped: the server's document is whole without it.
  const carried = opts.deviceState !== null && mergeBody(doc, opts.deviceState);
  /** The kept state is not yet known to be on the server. */
  let carrying = carried;
  let ready = false;
  let over = false;
  let unsyncedTimer: ReturnType<typeof setTimeout> | null = null;
  let shownUnsynced = false;
  let firstSync: ReturnType<typeof setTimeout> | null = null;

  const socket = new HocuspocusProviderWebsocket({
    url: opts.url,
    // The server's path ends with a slash; the provider would cut it.
    preserveTrailingSlash: true,
    // Back within seconds once the network is back (the 'online' event below retries at once).
    maxDelay: 5000,
    ...(opts.WebSocketPolyfill ? { WebSocketPolyfill: opts.WebSocketPolyfill } : {}),
    // Registered before the socket's own close handler, so a refusal stops it retrying.
    onClose: ({ event }) => {
      const code = (event as { code?: number }).code;
      // The server's refusals: the provider must not try again.
      if (code === LIVE_EDITING.closeForbidden) fail('refused');
      else if (code === LIVE_EDITING.closeOutsideSchema) fail('unavailable');
    },
  });
  const provider = new HocuspocusProvider({
    websocketProvider: socket,
    name: liveDocumentName(opts.storyId),
    document: doc,
    // The session cookie authenticates; the protocol still sends a token.
    token: '',
    onAuthenticationFailed: () => fail('refused'),
  });
  const awareness = provider.awareness!;
  // The provider sends on every awareness change, the others' too, so it would echo their states
  // back under their names (the server refuses a state not the sender's): only this client's go.
  awareness.off('update', provider.boundAwarenessUpdateHandler);
  awareness.on('update', ({ added, updated, removed }: { added: number[]; updated: number[]; removed: number[] }, origin: unknown) => {
    const mine = [...added, ...updated, ...removed].filter((id) => id === doc.clientID);
    if (mine.length) provider.awarenessUpdateHandler({ added: mine, updated: [], removed: [] }, origin);
  });
  awareness.setLocalStateField('user', opts.user);

  const online = () => socket.status === WebSocketStatus.Connected && provider.isSynced;
  const unsynced = () => carrying || provider.unsyncedChanges > 0;
  const report = () => {
    if (!over) opts.onState({ online: online(), unsynced: shownUnsynced });
  };

  const becomeReady = () => {
    if (ready || over) return;
    ready = true;
    if (firstSync) clearTimeout(firstSync);
    opts.onReady();
    report();
  };

  function fail(mode: 'refused' | 'unavailable') {
    if (over) return;
    // Before anything else: the socket's close handler, next, must not schedule a retry.
    socket.disconnect();
    over = true;
    opts.onFail(mode);
    destroy();
  }

  provider.on('synced', () => {
    // Back with changes made meanwhile: "Saving…" until the server has them, not "Saved".
    if (provider.unsyncedChanges > 0) shownUnsynced = true;
    if (!ready) becomeReady();
    report();
  });
  provider.on('status', report);
  provider.on('unsyncedChanges', ({ number }: { number: number }) => {
    if (number === 0 && provider.isSynced) carrying = false;
    // Said at once when all is acknowledged; "Saving…" only for a change that waits, so the
    // line does not flicker on every key.
    if (number === 0) {
      if (unsyncedTimer) clearTimeout(unsyncedTimer);
      unsyncedTimer = null;
      if (shownUnsynced) {
        shownUnsynced = false;
        report();
      }
    } else if (!shownUnsynced && !unsyncedTimer) {
      unsyncedTimer = setTimeout(() => {
        unsyncedTimer = null;
        if (provider.unsyncedChanges > 0 || carrying) {
          shownUnsynced = true;
          report();
        }
      }, opts.unsyncedAfterMs ?? 500);
    }
  });
  const peersOf = (): LivePeer[] => {
    const seen = new Set<string>();
    const peers: LivePeer[] = [];
    awareness.getStates().forEach((state, clientId) => {
      const user = (state as { user?: Partial<LiveUser> }).user;
      if (clientId === doc.clientID || !user?.name) return;
      // One line per person, however many tabs they have open.
      const key = `${user.name}\u0000${user.color}`;
      if (seen.has(key)) return;
      seen.add(key);
      peers.push({ clientId, name: user.name, color: user.color ?? '#555555' });
    });
    return peers;
  };
  awareness.on('change', () => {
    if (!over) opts.onPeers(peersOf());
  });

  // The browser knows before the socket does (a dead socket takes the provider 30 s to notice,
  // and an emulated offline leaves sockets open): offline, it holds its changes and says so;
  // online again, it connects at once and the sync sends what the server lacks.
  const onOnline = () => void socket.connect();
  const onOffline = () => socket.disconnect();
  window.addEventListener('online', onOnline);
  window.addEventListener('offline', onOffline);
  provider.attach();

  // With the body's state kept on this device the writer goes on at once, offline or not; without
  // it the body waits for the server's document, or gives the link up.
  if (carried) queueMicrotask(becomeReady);
  else firstSync = setTimeout(() => fail('unavailable'), opts.firstSyncMs ?? 8000);

  function destroy() {
    over = true;
    if (firstSync) clearTimeout(firstSync);
    if (unsyncedTimer) clearTimeout(unsyncedTimer);
    window.removeEventListener('online', onOnline);
    window.removeEventListener('offline', onOffline);
    provider.destroy();
    socket.destroy();
    doc.destroy();
  }

  return {
    binding: () => liveBinding(fragment, awareness),
    comments: (member) => new LiveComments(doc, member),
    encode: () => encodeBody(doc),
    unsynced,
    destroy() {
      if (!over) destroy();
    },
  };
}
