import { useEffect, useId, useLayoutEffect, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import { redo, undo } from '@tiptap/pm/history';
import type { Command } from '@tiptap/pm/state';
import type { EditorView } from '@tiptap/pm/view';
import { Dialog } from '../common/Dialog';
import type { StoryDoc } from '../../shared/newsroom';
import { reviewDocFromText, type ReviewEditorInitialState } from '../../shared/place-review';
import { renderStoryDoc } from '../../shared/story-render';
import { setLink, toggleBold, toggleHeading, toggleItalic, toggleList, unsetLink } from '../story-editor/body/commands';
import { storySchema } from '../../shared/story-pm-schema';
import { sanitizeStoryDoc } from '../story-editor/body/sanitize-doc';
import { createBodyView, docFrom, replaceDoc, ToolbarFeed } from '../story-editor/body/view';
import { onToolbarKeyDown } from '../story-editor/components/toolbar-parts';
import { TYPED_LINK_ERROR, typedLinkHref } from '../story-editor/body/typed-link';
import { dropReviewCopy, keepReviewCopy, readReviewCopy, type ReviewCopy } from './local-copy';
import type { ReviewForm } from './review-form';

// A place's review in the newsroom's body editor (islands/story-editor/body: the same schema,
// commands, paste cleaning and view), over the review page's textarea, which stays the form's
// field without JavaScript. The toolbar has the basics a review needs: bold, italic, link,
// headings, lists, undo. On submit the document goes in the hidden review_doc (and its words in
// the textarea); every change is kept on this device (local-copy.ts) until a page shows it saved.

const { bulletList, orderedList } = storySchema.nodes;
const KEEP_AFTER_MS = 400;

const docJson = (view: EditorView) => sanitizeStoryDoc(view.state.doc.toJSON() as StoryDoc);
const sameDoc = (a: StoryDoc, b: StoryDoc) => JSON.stringify(a) === JSON.stringify(b);
const timeOf = (at: number) => new Date(at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function LinkDialog({ current, onSet, onRemove, onClose }: { current: string | null; onSet: (href: string) => void; onRemove: () => void; onClose: () => void }) {
  const id = useId();
  const [url, setUrl] = useState(current ?? '');
  const [error, setError] = useState<string | null>(null);
  return (
    <Dialog title={current ? 'Edit link' : 'Add a link'} onClose={onClose} className="story-dialog">
      <div className="story-dialog__form">
        <label htmlFor={`${id}-url`}>Address</label>
        <input
          id={`${id}-url`}
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          // Enter sets the link: the dialog sits inside the review's form, whose submit it must not be.
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              submit();
            }
          }}
          placeholder="https://… or /food/…"
          aria-invalid={Boolean(error)}
          aria-describedby={`${id}-err`}
        />
        <p id={`${id}-err`} className="field-error" role="alert">{error}</p>
        <div className="story-dialog__actions">
          <button type="button" onClick={submit}>Set link</button>
          {current && <button type="button" className="button--secondary" onClick={onRemove}>Remove link</button>}
          <button type="button" className="button--quiet" onClick={onClose}>Cancel</button>
        </div>
      </div>
    </Dialog>
  );
  function submit() {
    const href = typedLinkHref(url);
    if (!href) return setError(TYPED_LINK_ERROR);
    onSet(href);
  }
}

function Toolbar({ view, feed }: { view: EditorView; feed: ToolbarFeed }) {
  const [linking, setLinking] = useState(false);
  const active = useSyncExternalStore(feed.subscribe, feed.get);
  const run = (command: Command) => {
    command(view.state, view.dispatch, view);
    view.focus();
  };
  const button = (label: string, content: ReactNode, run: () => void, pressed?: boolean, disabled?: boolean) => (
    <button type="button" className="story-toolbar__button" aria-label={label} title={label} aria-pressed={pressed} disabled={disabled} onMouseDown={(e) => e.preventDefault()} onClick={run}>
      {content}
    </button>
  );
  return (
    <>
      <div className="story-toolbar review-editor__toolbar" role="toolbar" aria-label="Review formatting" onKeyDown={onToolbarKeyDown}>
        {button('Bold', <b>B</b>, () => run(toggleBold), active?.bold ?? false)}
        {button('Italic', <i>I</i>, () => run(toggleItalic), active?.italic ?? false)}
        {button('Link', 'Link', () => setLinking(true), active?.link ?? false)}
        <span className="story-toolbar__sep" aria-hidden="true" />
        {button('Heading', 'H2', () => run(toggleHeading(2)), active?.h2 ?? false)}
        {button('Subheading', 'H3', () => run(toggleHeading(3)), active?.h3 ?? false)}
        {button('Bulleted list', '• List', () => run(toggleList(bulletList)), active?.bullet ?? false)}
        {button('Numbered list', '1. List', () => run(toggleList(orderedList)), active?.ordered ?? false)}
        <span className="story-toolbar__sep" aria-hidden="true" />
        {button('Undo', '↶', () => run(undo), undefined, !active?.canUndo)}
        {button('Redo', '↷', () => run(redo), undefined, !active?.canRedo)}
      </div>
      {linking && (
        <LinkDialog
          current={active?.href ?? null}
          onClose={() => setLinking(false)}
          onSet={(href) => {
            setLinking(false);
            run(setLink(href));
          }}
          onRemove={() => {
            setLinking(false);
            run(unsetLink);
          }}
        />
      )}
    </>
  );
}

export function ReviewEditor({ init, form }: { init: ReviewEditorInitialState; form: ReviewForm }) {
  const host = useRef<HTMLDivElement>(null);
  const [view, setView] = useState<EditorView | null>(null);
  const [feed] = useState(() => new ToolbarFeed());
  // The document the page holds: the saved one, the one a refused form posted, or the textarea's words.
  const [start] = useState(() => docFrom(init.doc ?? reviewDocFromText(form.text())).toJSON() as StoryDoc);
  // A copy typed here and never shown saved (a failed save, a crash, a closed tab) is offered back.
  const [offer, setOffer] = useState<ReviewCopy | null>(() => {
    const copy = readReviewCopy(init.placeId);
    return copy && !sameDoc(docFrom(copy.doc).toJSON() as StoryDoc, start) ? copy : null;
  });
  const [message, setMessage] = useState<string | null>(null);

  useLayoutEffect(() => {
    // The page shows what the copy holds (saved, or a refused form's): nothing to keep.
    const copy = readReviewCopy(init.placeId);
    if (copy && sameDoc(docFrom(copy.doc).toJSON() as StoryDoc, start)) dropReviewCopy(init.placeId);
    let timer: ReturnType<typeof setTimeout> | null = null;
    const keep = () => {
      if (timer) clearTimeout(timer);
      timer = null;
      keepReviewCopy(init.placeId, { doc: docJson(v), version: form.version() || init.version, at: Date.now() });
    };
    const v = createBodyView(host.current!, {
      doc: start,
      nodeViews: {},
      paste: { onDroppedImages: () => setMessage('Pictures are not part of a review: the pasted ones were left out.') },
      onDocChange: () => {
        if (timer) clearTimeout(timer);
        timer = setTimeout(keep, KEEP_AFTER_MS);
      },
      onTransaction: (w) => feed.schedule(w),
    });
    v.setProps({ attributes: { class: 'story-body-editor', role: 'textbox', 'aria-multiline': 'true', 'aria-labelledby': 'review-review-label', 'aria-describedby': 'review-editor-help', translate: 'no' } });
    feed.read(v.state);
    const uncover = form.cover();
    const unsubmit = form.onSubmit(() => {
      const doc = docJson(v);
      keep();
      return { json: JSON.stringify(doc), text: renderStoryDoc(doc).text };
    });
    // The page going away (a reload, a closed tab) keeps the last words at once.
    const onHide = () => {
      if (timer) keep();
    };
    window.addEventListener('pagehide', onHide);
    setView(v);
    return () => {
      unsubmit();
      uncover();
      window.removeEventListener('pagehide', onHide);
      if (timer) clearTimeout(timer);
      v.destroy();
      setView(null);
    };
  }, [init, form, feed, start]);

  useEffect(() => {
    if (!message) return;
    const t = setTimeout(() => setMessage(null), 8000);
    return () => clearTimeout(t);
  }, [message]);

  const restore = () => {
    if (!view || !offer) return;
    replaceDoc(view, offer.doc);
    // Saved on the version it was typed on: if someone saved since, the server refuses it (409), never overwrites.
    form.setVersion(offer.version);
    keepReviewCopy(init.placeId, { ...offer, at: Date.now() });
    setOffer(null);
    setMessage('Your unsaved text is back. Save or publish it to keep it.');
    view.focus();
  };
  const discard = () => {
    dropReviewCopy(init.placeId);
    setOffer(null);
  };

  return (
    <div className="review-editor">
      <p className="muted" id="review-editor-help">Bold, italic, links, headings and lists; a blank paragraph is dropped. Your text is kept on this device until it is saved.</p>
      {offer && (
        <div className="notice review-editor__offer" role="alert" data-review-copy>
          <p>Text you typed on {timeOf(offer.at)} was not saved; it is still on this device.</p>
          <p>
            <button type="button" onClick={restore}>Restore it</button>{' '}
            <button type="button" className="button--secondary" onClick={discard}>Discard it</button>
          </p>
        </div>
      )}
      {view && <Toolbar view={view} feed={feed} />}
      <div ref={host} className="story-body__content review-editor__body" />
      <p className="review-editor__message" role="status">{message}</p>
    </div>
  );
}
