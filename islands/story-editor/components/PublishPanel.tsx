import { lazy, Suspense, useId, useState } from 'react';
import { createPortal } from 'react-dom';
import { useDispatch, useSelector } from 'react-redux';
import { ApiError } from '../../common/api';
import { STORY_STATUS_LABELS } from '../../../shared/newsroom';
import type { StoryDTO } from '../../../shared/story-dto';
import { useServices } from '../services';
import { editorActions } from '../slice';
import type { StoryEditorRootState } from '../store';
import { SLUG_REDIRECT_NOTE } from './StoryFieldsForm';

// Publishing: the status, and the actions the story's permissions allow. Publishing first
// saves, then shows the checks (blocking ones in red, warnings in amber); an editor may
// publish over a blocking one with a reason.

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString('en-CA', { timeZone: 'America/Toronto', dateStyle: 'medium', timeStyle: 'short' }) : '');

// The checks and the publish dialog load when the dialog first opens.
const PublishDialog = lazy(() => import('./PublishDialog').then((m) => ({ default: m.PublishDialog })));

export function PublishPanel() {
  const dispatch = useDispatch();
  const { api, autosaver } = useServices();
  // Only what this panel shows: not the whole state, which changes on every key.
  const id = useSelector((s: StoryEditorRootState) => s.editor.id);
  const meta = useSelector((s: StoryEditorRootState) => s.editor.meta);
  const publishedSlug = useSelector((s: StoryEditorRootState) => s.editor.publishedSlug);
  const slugChanged = useSelector((s: StoryEditorRootState) => s.editor.publishedSlug !== null && s.editor.fields.slug !== s.editor.publishedSlug);
  const [dialog, setDialog] = useState(false);
  const [scheduling, setScheduling] = useState(false);
  const [at, setAt] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const atId = useId();

  if (id === null || !meta) {
    return (
      <section className="story-panel" aria-labelledby="story-publish-title">
        <h2 id="story-publish-title" className="story-panel__title">Publishing</h2>
        <p><span className="story-badge story-badge--draft">New</span> Publishing opens once the story is saved: give it a headline.</p>
      </section>
    );
  }
  const p = meta.permissions;
  const status = meta.status;
  const published = status === 'published';
  const run = async (action: () => Promise<StoryDTO>) => {
    setBusy(true);
    setError(null);
    try {
      await autosaver.flush(false);
      dispatch(editorActions.storyUpdated(await action()));
      setScheduling(false);
    } catch (err) {
      setError(err instanceof ApiError ? (err.first('publish_at') ?? err.first('at') ?? err.first('non_field_errors') ?? err.message) : 'No connection: try again.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="story-panel" aria-labelledby="story-publish-title">
      <h2 id="story-publish-title" className="story-panel__title">Publishing</h2>
      <p>
        <span className={`story-badge story-badge--${status}`}>{STORY_STATUS_LABELS[status]}</span>
        {meta.has_pending && published && <span className="story-badge story-badge--pending">Changes not live</span>}
      </p>
      {status === 'scheduled' && meta.scheduled_at && <p>Publishes {when(meta.scheduled_at)} (Toronto time).</p>}
      {meta.unpublish_at && <p>Unpublishes {when(meta.unpublish_at)} (Toronto time).</p>}
      {meta.date_published && published && <p>Published {when(meta.date_published)}{meta.published_late_minutes ? `, ${meta.published_late_minutes} min late.` : when(meta.date_published).endsWith('.') ? '' : '.'}</p>}
      {meta.public_url && <p><a href={meta.public_url}>View the live story</a></p>}
      {publishedSlug && slugChanged && <p className="story-note" role="note">{SLUG_REDIRECT_NOTE}</p>}
      <div className="story-panel__actions">
        {p.submitForReview && (status === 'draft' || status === 'unpublished') && (
          <button type="button" className="button--secondary" disabled={busy} onClick={() => void run(() => api.submit(id))}>Submit for review</button>
        )}
        {p.publish && <button type="button" disabled={busy} onClick={() => setDialog(true)}>{published ? 'Update' : 'Publish'}</button>}
        {p.publish && !published && <button type="button" className="button--secondary" disabled={busy} aria-expanded={scheduling} onClick={() => setScheduling(!scheduling)}>Schedule…</button>}
        {p.publish && published && <button type="button" className="button--secondary" disabled={busy} onClick={() => void run(() => api.unpublish(id))}>Unpublish</button>}
        {p.publish && (status === 'scheduled' || meta.unpublish_at) && <button type="button" className="button--secondary" disabled={busy} onClick={() => void run(() => api.unschedule(id))}>Unschedule</button>}
      </div>
      {scheduling && (
        <form
          className="story-schedule"
          onSubmit={(e) => {
            e.preventDefault();
            if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(at)) void run(() => api.schedule(id, at.slice(0, 16)));
          }}
        >
          <label htmlFor={atId}>Publish at (Toronto time)</label>
          <input id={atId} type="datetime-local" value={at} required onChange={(e) => setAt(e.target.value)} />
          <button type="submit" disabled={busy || !at}>Schedule</button>
        </form>
      )}
      {error && <p className="field-error" role="alert">{error}</p>}
      {/* In the body, not in this panel: the side column is sticky on a wide screen, and a
          dialog inside it would sit under the editor's sticky bar and toolbar. */}
      {dialog &&
        createPortal(
          <Suspense fallback={null}>
          <PublishDialog
            id={id}
            update={published}
            onClose={() => setDialog(false)}
            onDone={(s) => {
              dispatch(editorActions.storyUpdated(s));
              setDialog(false);
            }}
          />
          </Suspense>,
          document.body,
        )}
    </section>
  );
}
