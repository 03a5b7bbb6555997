import { lazy, Suspense, useEffect, useState } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import { useServices } from '../services';
import { editorActions } from '../slice';
import type { StoryEditorRootState } from '../store';
import { Presence } from './Presence';
import { PublishPanel } from './PublishPanel';
import { SaveStatus } from './SaveStatus';
import { StoryFieldsForm } from './StoryFieldsForm';

// The body editor (ProseMirror, most of the island's code) is its own chunk,
// asked for by main.tsx as the island starts, in parallel with reading this device's copy;
// the fields are usable meanwhile.
export const loadStoryBody = () => import('./StoryBody');
const StoryBody = lazy(() => loadStoryBody().then((m) => ({ default: m.StoryBody })));

/** The body's place until its editor is here. */
function BodyPlaceholder() {
  return (
    <section className="story-body" aria-labelledby="story-body-label">
      <h2 id="story-body-label" className="story-editor__label">Body</h2>
      <p className="story-body__loading">Loading the body editor…</p>
    </section>
  );
}

// The panels a writer opens later load on demand (code-split): a conflict's panel when a 409
// brings one, the preview links after the page is up, the revisions when asked for.
const ConflictPanel = lazy(() => import('./ConflictPanel').then((m) => ({ default: m.ConflictPanel })));
const PreviewPanel = lazy(() => import('./PreviewPanel').then((m) => ({ default: m.PreviewPanel })));
const RevisionsPanel = lazy(() => import('./RevisionsPanel').then((m) => ({ default: m.RevisionsPanel })));

/** The preview links' panel until its code is here: its heading. */
function PreviewPlaceholder() {
  return (
    <section className="story-panel" aria-labelledby="story-previews-title">
      <h2 id="story-previews-title" className="story-panel__title">Preview links</h2>
    </section>
  );
}

/** The revisions' panel until it is opened: its heading and "Show revisions". */
function RevisionsPlaceholder({ onOpen, busy }: { onOpen?: () => void; busy?: boolean }) {
  return (
    <section className="story-panel" aria-labelledby="story-revisions-title">
      <h2 id="story-revisions-title" className="story-panel__title">Revisions</h2>
      <button type="button" className="button--secondary" aria-disabled={busy || undefined} onClick={onOpen}>Show revisions</button>
    </section>
  );
}

function SidePanels() {
  const saved = useSelector((s: StoryEditorRootState) => s.editor.id !== null);
  const [revisions, setRevisions] = useState(false);
  if (!saved) return null;
  return (
    <>
      <Suspense fallback={<PreviewPlaceholder />}>
        <PreviewPanel />
      </Suspense>
      {revisions ? (
        <Suspense fallback={<RevisionsPlaceholder busy />}>
          <RevisionsPanel showList />
        </Suspense>
      ) : (
        <RevisionsPlaceholder onOpen={() => setRevisions(true)} />
      )}
    </>
  );
}

// The editor page: the fields and body in the main column, the panels beside it on a wide
// screen and below it on a phone. Ctrl-S or Cmd-S saves at once, as a revision.

export function StoryEditor({ types }: { types: Array<{ id: number; name: string }> }) {
  const dispatch = useDispatch();
  const { autosaver } = useServices();
  const restored = useSelector((s: StoryEditorRootState) => s.editor.restoredFromDevice);
  const conflicted = useSelector((s: StoryEditorRootState) => s.editor.conflicts.length > 0);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 's') {
        e.preventDefault();
        void autosaver.flush(true);
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [autosaver]);

  return (
    <div className="story-editor">
      <div className="story-editor__bar">
        <SaveStatus onSave={() => void autosaver.flush(true)} />
        <Presence />
      </div>
      {restored && (
        <p className="story-editor__restored" role="status">
          Changes kept on this device were restored; they are being saved.{' '}
          <button type="button" className="button--quiet" onClick={() => dispatch(editorActions.restoredNoticeClosed())}>Dismiss</button>
        </p>
      )}
      {conflicted && (
        <Suspense fallback={null}>
          <ConflictPanel />
        </Suspense>
      )}
      <div className="story-editor__main">
        <StoryFieldsForm types={types} />
        <Suspense fallback={<BodyPlaceholder />}>
          <StoryBody />
        </Suspense>
      </div>
      <aside className="story-editor__side" aria-label="Publishing, revisions and previews">
        <PublishPanel />
        <SidePanels />
      </aside>
    </div>
  );
}
