import { useEffect, useId, useRef, useState, useSyncExternalStore } from 'react';
import type { LiveMode } from '../slice';
import { COMMENT_LIMITS, type CommentAnchor, type LiveComment } from '../live/comment-model';
import type { LiveComments } from '../live/comments';

// The story's comments beside the live body (below it on a phone): open ones first, each with
// its passage, text, author and time, Resolve, Edit for its author, and Delete for its author
// or an editor; the resolved ones folded under "Resolved (N)" with Reopen. They are the shared
// document's, so the others' appear and change here as they make them. Without the live link
// there are none.

export const COMMENTS_NEED_LIVE = 'Comments need the live connection.';

const when = (iso: string) =>
  new Date(iso).toLocaleString('en-CA', { timeZone: 'America/Toronto', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hour12: false });

/** Asks for the comment's text on a passage (or its new text); Escape or Cancel drops it. */
function CommentForm({ at, initial = '', onSave, onCancel }: { at: Pick<CommentAnchor, 'quote'>; initial?: string; onSave: (text: string) => void; onCancel: () => void }) {
  const [text, setText] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const field = useRef<HTMLTextAreaElement>(null);
  const id = useId();
  useEffect(() => field.current?.focus(), []);
  return (
    <form
      className="story-comment-form"
      aria-label={initial ? 'Edit comment' : 'New comment'}
      onSubmit={(e) => {
        e.preventDefault();
        if (!text.trim()) {
          setError('Write the comment first.');
          field.current?.focus();
          return;
        }
        onSave(text);
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          onCancel();
        }
      }}
    >
      <p className="story-comment__quote">“{at.quote}”</p>
      <label htmlFor={`${id}-text`}>{initial ? 'Your comment' : 'Comment on the selected passage'}</label>
      <textarea
        id={`${id}-text`}
        ref={field}
        rows={3}
        maxLength={COMMENT_LIMITS.textMax}
        value={text}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => {
          setText(e.target.value);
          setError(null);
        }}
      />
      {error && <p id={`${id}-error`} className="story-comment-form__error" role="alert">{error}</p>}
      <div className="story-panel__actions">
        <button type="submit">Save comment</button>
        <button type="button" className="button--secondary" onClick={onCancel}>Cancel</button>
      </div>
    </form>
  );
}

function CommentItem({ c, comments, focused }: { c: LiveComment; comments: LiveComments; focused: number | null }) {
  const item = useRef<HTMLLIElement>(null);
  useEffect(() => {
    if (focused === null || !item.current) return;
    item.current.focus();
    item.current.scrollIntoView({ block: 'nearest' });
  }, [focused]);
  const [editing, setEditing] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  const doneEditing = () => {
    setEditing(false);
    // Back to the button that opened the form, as a dialog returns focus.
    requestAnimationFrame(() => editButton.current?.focus());
  };
  if (editing) {
    return (
      <li ref={item} className="story-comment" data-comment-id={c.id} aria-label={`Comment by ${c.authorName}`}>
        <CommentForm
          at={c}
          initial={c.text}
          onCancel={doneEditing}
          onSave={(text) => {
            comments.edit(c.id, text);
            doneEditing();
          }}
        />
      </li>
    );
  }
  return (
    <li ref={item} className={`story-comment${c.resolved ? ' story-comment--resolved' : ''}`} tabIndex={-1} data-comment-id={c.id} aria-label={`Comment by ${c.authorName}`}>
      <p className="story-comment__quote">“{c.quote}”</p>
      <p className="story-comment__text">{c.text}</p>
      <p className="story-comment__meta">
        {c.authorName}, <time dateTime={c.createdAt}>{when(c.createdAt)}</time>
        {c.resolved && c.resolvedBy && <> · resolved by {c.resolvedBy}</>}
      </p>
      <div className="story-panel__actions">
        {c.resolved ? (
          <button type="button" className="button--secondary" onClick={() => comments.resolve(c.id, false)}>Reopen</button>
        ) : (
          <button type="button" className="button--secondary" onClick={() => comments.resolve(c.id, true)}>Resolve</button>
        )}
        {comments.mayEdit(c) && (
          <button type="button" ref={editButton} className="button--quiet" onClick={() => setEditing(true)}>Edit</button>
        )}
        {comments.mayDelete(c) && (
          <button type="button" className="button--quiet" onClick={() => comments.remove(c.id)}>Delete</button>
        )}
      </div>
    </li>
  );
}

const NO_COMMENTS: LiveComment[] = [];
const none = () => () => undefined;

export interface CommentsPanelProps {
  comments: LiveComments | null;
  mode: LiveMode;
  /** A passage waiting for its comment's text. */
  draft: CommentAnchor | null;
  onDraftDone: () => void;
  /** The comment to show (its highlight was clicked: an open one), with a counter so a second click shows it again. */
  focus: { id: string; n: number } | null;
}

export function CommentsPanel({ comments, mode, draft, onDraftDone, focus }: CommentsPanelProps) {
  const list = useSyncExternalStore(comments?.subscribe ?? none, comments?.getSnapshot ?? (() => NO_COMMENTS));
  const open = list.filter((c) => !c.resolved);
  const resolved = list.filter((c) => c.resolved);
  const [showResolved, setShowResolved] = useState(false);
  const focusOf = (c: LiveComment) => (focus?.id === c.id ? focus.n : null);

  if (mode !== 'live' || !comments) {
    return (
      <section className="story-panel story-comments" aria-labelledby="story-comments-title">
        <h2 id="story-comments-title" className="story-panel__title">Comments</h2>
        <p className="story-comments__none">{mode === 'connecting' ? 'Connecting…' : COMMENTS_NEED_LIVE}</p>
      </section>
    );
  }
  return (
    <section className="story-panel story-comments" aria-labelledby="story-comments-title">
      <h2 id="story-comments-title" className="story-panel__title">Comments</h2>
      {draft && (
        <CommentForm
          at={draft}
          onCancel={onDraftDone}
          onSave={(text) => {
            comments.add(text, draft);
            onDraftDone();
          }}
        />
      )}
      {open.length ? (
        <ul className="story-comments__list" aria-label="Open comments">
          {open.map((c) => <CommentItem key={c.id} c={c} comments={comments} focused={focusOf(c)} />)}
        </ul>
      ) : (
        !draft && <p className="story-comments__none">No open comments. Select a passage and press Comment (Ctrl+Alt+M).</p>
      )}
      {resolved.length > 0 && (
        <details className="story-comments__resolved" open={showResolved} onToggle={(e) => setShowResolved(e.currentTarget.open)}>
          <summary>Resolved ({resolved.length})</summary>
          <ul className="story-comments__list" aria-label="Resolved comments">
            {resolved.map((c) => <CommentItem key={c.id} c={c} comments={comments} focused={focusOf(c)} />)}
          </ul>
        </details>
      )}
    </section>
  );
}
