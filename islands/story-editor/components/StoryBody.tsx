import { useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useSelector, useStore } from 'react-redux';
import type { EditorView } from '@tiptap/pm/view';
import { ApiError } from '../../common/api';
import type { StoryDoc } from '../../../shared/newsroom';
import { insertBlocks } from '../body/insert-block';
import { NodeViewPortals, reactNodeView } from '../body/node-views';
import { sanitizeStoryDoc } from '../body/sanitize-doc';
import { createBodyView, replaceDoc, ToolbarFeed } from '../body/view';
import { sameJson } from '../fields';
import { useServices } from '../services';
import type { StoryEditorRootState, StoryEditorStore } from '../store';
import { startLiveBody } from '../live/live-body';
import type { LiveMode } from '../slice';
import { GalleryNodeView, ImageNodeView, LiveCardNodeView, YoutubeNodeView } from './NodeViews';
import { Toolbar } from './Toolbar';
import { CommentsPanel } from './CommentsPanel';
import type { CommentAnchor } from '../live/comment-model';
import type { LiveComments } from '../live/comments';

// The body: ProseMirror on the story schema. A keystroke tells the store the body changed
// (store.body.edited: no Redux action, no React render); the store reads its JSON lazily,
// when it needs it (store.ts). A body replaced from outside (a restored revision, a
// conflict's choice, this device's copy) comes back in through `docRevision`, unless the body
// is live (issue 42, live/): then it is bound to the story's shared document, and every change,
// a restore included, comes through that.

/** What the body says of its live link (issue 42), when it is not simply live. */
export const LIVE_NOTICES: Partial<Record<LiveMode, string>> = {
  connecting: 'Connecting to the live story…',
  refused: 'This story cannot be edited live: you may not join it. Your changes are saved as before.',
  unavailable: 'Live editing is not available right now: your changes are saved as before. Reload the page to try again.',
};

export const PASTED_PICTURES_MESSAGE = 'Pictures pasted from other sites are not copied; upload them with the image button';

const TYPING_EVENTS = ['keypress', 'keyup', 'beforeinput', 'input', 'textInput', 'compositionstart', 'compositionupdate', 'compositionend'];

function Portals({ portals }: { portals: NodeViewPortals }) {
  return <>{useSyncExternalStore(portals.subscribe, portals.snapshot)}</>;
}

export function StoryBody() {
  const { api, member, live: liveOptions } = useServices();
  const store = useStore<StoryEditorRootState>() as StoryEditorStore;
  const docRevision = useSelector((s: StoryEditorRootState) => s.editor.docRevision);
  const storyId = useSelector((s: StoryEditorRootState) => s.editor.id);
  const liveMode = useSelector((s: StoryEditorRootState) => s.editor.live.mode);
  /** Live only for a story that existed when the body opened (a new one is, from its next opening). */
  const [openedId] = useState(storyId);
  const [message, setMessage] = useState<string | null>(null);
  // Pictures taken out of a paste are announced on this target; the effect below, which sees
  // the current id and view, handles them (the plugins are made once).
  const [pasted] = useState(() => new EventTarget());
  const [paste] = useState(() => ({ onDroppedImages: (urls: string[]) => pasted.dispatchEvent(new CustomEvent('dropped', { detail: urls })) }));
  const [portals] = useState(() => new NodeViewPortals());
  const [feed] = useState(() => new ToolbarFeed());
  const host = useRef<HTMLDivElement>(null);
  const [view, setView] = useState<EditorView | null>(null);
  /** The docRevision the view's document stands for. */
  const shownRevision = useRef(-1);
  // Comments (live only): the shared document's, a passage waiting for its comment's text, and
  // the comment a click on its highlight shows.
  const [comments, setComments] = useState<LiveComments | null>(null);
  const [draft, setDraft] = useState<CommentAnchor | null>(null);
  const [focus, setFocus] = useState<{ id: string; n: number } | null>(null);
  const askComment = useRef(() => undefined as void);
  useEffect(() => {
    askComment.current = () => {
      if (!view || !comments) return;
      const at = comments.anchor(view.state);
      if (at) setDraft(at);
      else setMessage('Select a passage to comment on.');
    };
  }, [view, comments]);
  const [commentLink] = useState(() => ({
    onChange: (c: LiveComments | null) => {
      setComments(c);
      if (!c) setDraft(null);
    },
    handlers: { open: (id: string) => setFocus((f) => ({ id, n: (f?.n ?? 0) + 1 })), ask: () => askComment.current() },
  }));

  useLayoutEffect(() => {
    const place = host.current!;
    const v = createBodyView(place, {
      doc: store.getState().editor.fields.doc,
      nodeViews: {
        image: reactNodeView(ImageNodeView, portals),
        gallery: reactNodeView(GalleryNodeView, portals),
        youtube: reactNodeView(YoutubeNodeView, portals),
        liveCard: reactNodeView(LiveCardNodeView, portals),
      },
      paste,
      onDocChange: store.body.edited,
      onTransaction: (w) => feed.schedule(w),
    });
    // React has no handler in the body's text: its typing events end at the body, so React's
    // root listener does not walk the page's tree for them on their way up. Keydown goes on
    // (Ctrl-S and the dialogs listen on the document); the blocks' own inputs are React's.
    const stop = (e: Event) => {
      if (e.target === v.dom) e.stopPropagation();
    };
    for (const type of TYPING_EVENTS) place.addEventListener(type, stop);
    shownRevision.current = store.getState().editor.docRevision;
    feed.read(v.state);
    const disconnect = store.body.connect(() => sanitizeStoryDoc(v.state.doc.toJSON() as StoryDoc));
    setView(v);
    return () => {
      for (const type of TYPING_EVENTS) place.removeEventListener(type, stop);
      disconnect();
      v.destroy();
      setView(null);
    };
  }, [store, portals, paste, feed]);

  useEffect(() => {
    if (!view || openedId === null || !member || liveOptions === false) return;
    return startLiveBody({ view, store, paste, storyId: openedId, member, comments: commentLink, ...liveOptions });
  }, [view, openedId, member, liveOptions, store, paste, commentLink]);

  useEffect(() => {
    // The server may copy them (fetchPastedImage); until it can, the message stands.
    const onDropped = (e: Event) => {
      setMessage(PASTED_PICTURES_MESSAGE);
      if (storyId === null || !view) return;
      for (const url of (e as CustomEvent<string[]>).detail) copyPicture(storyId, url);
    };
    const copyPicture = (id: number, url: string) =>
      api.fetchPastedImage(id, url).then(
        (key) => {
          if (view && !view.isDestroyed) insertBlocks(view, { type: 'image', attrs: { key, alt: '', credit: '', caption: '' } });
          setMessage('A pasted picture was copied: add its alt text and credit.');
        },
        (err: unknown) => {
          if (err instanceof ApiError && err.status === 400) setMessage(`A pasted picture was not copied: ${err.first('url') ?? err.message}`);
        },
      );
    pasted.addEventListener('dropped', onDropped);
    return () => pasted.removeEventListener('dropped', onDropped);
  }, [pasted, storyId, view, api]);

  useEffect(() => {
    if (!view || shownRevision.current === docRevision) return;
    shownRevision.current = docRevision;
    const doc = store.getState().editor.fields.doc;
    if (!sameJson(sanitizeStoryDoc(view.state.doc.toJSON() as StoryDoc), doc)) replaceDoc(view, doc);
    // Only a replaced body is pushed in; the editor's own changes are already in it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [docRevision, view]);

  return (
    <section className="story-body" aria-labelledby="story-body-label">
      <h2 id="story-body-label" className="story-editor__label">Body</h2>
      {view && <Toolbar view={view} feed={feed} onMessage={setMessage} onComment={comments ? () => askComment.current() : undefined} />}
      {LIVE_NOTICES[liveMode] && (
        <p className={`story-body__live story-body__live--${liveMode}`} role="status">{LIVE_NOTICES[liveMode]}</p>
      )}
      {message && (
        <p className="story-body__message" role="status">
          {message}{' '}
          <button type="button" className="button--quiet" onClick={() => setMessage(null)}>Dismiss</button>
        </p>
      )}
      <div className="story-body__columns">
        <div ref={host} className="story-body__content" />
        {liveMode !== 'off' && (
          <CommentsPanel
            comments={comments}
            mode={liveMode}
            draft={draft}
            focus={focus}
            onDraftDone={() => {
              setDraft(null);
              view?.focus();
            }}
          />
        )}
      </div>
      <Portals portals={portals} />
    </section>
  );
}
