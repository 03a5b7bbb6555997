import type { EditorView } from '@tiptap/pm/view';
import type { StoryDoc } from '../../../shared/newsroom';
import { rebindBody } from '../body/view';
import type { StoryPasteOptions } from '../body/plugins';
import { editorActions, type LiveMode } from '../slice';
import type { StoryEditorStore } from '../store';
import { colorFor } from './colors';
import type { CommentHighlightHandlers } from './comment-highlights';
import type { CommentMember } from './comment-model';
import type { LiveComments } from './comments';

// The body goes live (issue 42) when the page can reach the shared document: the Yjs modules
// load here, on demand, inside the body editor's chunk. Until the server's document arrives
// the body is read-only ("Connecting…"), so nothing typed meanwhile would have to be merged by
// hand; a body kept on this device as shared state is bound at once. When the link cannot be
// had (no WebSocket, no answer, refused), the body stays the view's and is saved with PATCH as
// before; a body kept as shared state is read out of it first, so nothing is lost.

export interface LiveBodyOptions {
  view: EditorView;
  store: StoryEditorStore;
  paste: StoryPasteOptions;
  storyId: number;
  member: CommentMember;
  /** The comments' panel: the story's comments while the body is live (null when not), and what a highlight asks of it. */
  comments?: { onChange: (comments: LiveComments | null) => void; handlers: CommentHighlightHandlers };
  /** For tests: the socket's constructor, the page's address, and the first sync's patience. */
  WebSocketPolyfill?: unknown;
  url?: string;
  firstSyncMs?: number;
}

const loadSession = () => import('./session');
const loadHighlights = () => import('./comment-highlights');
const loadSharedState = () => import('./shared-state');

/** Starts the live link; answers its stop. */
export function startLiveBody(opts: LiveBodyOptions): () => void {
  const { view, store, paste } = opts;
  let stopped = false;
  let stop = () => undefined as void;
  const live = (payload: Parameters<typeof editorActions.liveChanged>[0]) => store.dispatch(editorActions.liveChanged(payload));
  const kept = store.live.deviceState;
  // Until the server's document is here nothing may change the body: not a key (not editable),
  // not the toolbar (its changes are dropped), since the document is then replaced by the shared one.
  const dispatch = view.props.dispatchTransaction;
  const release = () => {
    if (!view.isDestroyed) view.setProps({ editable: undefined, dispatchTransaction: dispatch });
  };
  if (!kept) view.setProps({ editable: () => false, dispatchTransaction: (tr) => void (!tr.docChanged && dispatch?.call(view, tr)) });
  live({ mode: 'connecting', online: false, unsynced: false });

  /** The link given up: the body is the view's again, saved as before. */
  const fallBack = async (mode: Extract<LiveMode, 'refused' | 'unavailable'>, bound: boolean) => {
    release();
    if (bound && !view.isDestroyed) rebindBody(view, view.state.doc, paste);
    const unmerged = store.live.deviceState;
    store.live.deviceState = null;
    live({ mode, online: false, unsynced: false });
    if (unmerged && !bound) {
      // Never bound: the kept state's body is read and saved as the body.
      const body = (await loadSharedState()).bodyOfState(unmerged);
      if (body) store.dispatch(editorActions.fieldChanged({ field: 'doc', value: body as StoryDoc }));
    } else if (bound) store.body.edited(); // the body is sent with the next save if the server lacks it
  };

  if (typeof WebSocket === 'undefined' && !opts.WebSocketPolyfill) {
    void fallBack('unavailable', false);
    return () => undefined;
  }

  void Promise.all([loadSession(), loadHighlights()]).then(
    ([{ openLiveSession, liveUrl }, { commentHighlights }]) => {
      if (stopped || view.isDestroyed) return;
      let bound = false;
      let comments: LiveComments | null = null;
      let unlink = () => undefined as void;
      const detach = () => {
        unlink();
        // The comments go with the link: the fallback body has no shared document to hold them.
        comments?.destroy();
        comments = null;
        opts.comments?.onChange(null);
      };
      const session = openLiveSession({
        storyId: opts.storyId,
        user: { name: opts.member.name, color: colorFor(opts.member.id) },
        deviceState: kept,
        url: opts.url ?? liveUrl(location),
        firstSyncMs: opts.firstSyncMs,
        WebSocketPolyfill: opts.WebSocketPolyfill,
        onReady: () => {
          if (view.isDestroyed) return;
          const binding = session.binding();
          comments = session.comments(opts.member);
          if (opts.comments) binding.plugins.push(commentHighlights(comments, opts.comments.handlers));
          // First: y-prosemirror may draw an empty document with a transaction of its own.
          release();
          rebindBody(view, binding.doc, paste, binding);
          bound = true;
          store.live.deviceState = null;
          unlink = store.live.attach(session);
          live({ mode: 'live', unsynced: session.unsynced() });
          opts.comments?.onChange(comments);
          // The store reads the bound body's JSON next time it needs it.
          store.body.edited();
        },
        onFail: (mode) => {
          detach();
          void fallBack(mode, bound);
        },
        onState: (state) => live(state),
        onPeers: (peers) => store.live.setPeers(peers),
      });
      stop = () => {
        detach();
        session.destroy();
      };
    },
    () => void fallBack('unavailable', false),
  );

  return () => {
    stopped = true;
    stop();
  };
}
