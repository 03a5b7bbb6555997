import { useEffect } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import { useServices } from '../services';
import { editorActions } from '../slice';
import type { StoryEditorRootState } from '../store';
import { ConflictPanel } from './ConflictPanel';
import { Presence } from './Presence';
import { PreviewPanel } from './PreviewPanel';
import { PublishPanel } from './PublishPanel';
import { RevisionsPanel } from './RevisionsPanel';
import { SaveStatus } from './SaveStatus';
import { StoryBody } from './StoryBody';
import { StoryFieldsForm } from './StoryFieldsForm';

// The editor page: the fields and body in the main column, the panels beside it on a wide
// screen and below it on a phone. Ctrl-S or Cmd-S saves at once, as a revision.

export function StoryEditor({ types }: { types: Array<{ id: number; name: string }> }) {
  const dispatch = useDispatch();
  const { autosaver } = useServices();
  const restored = useSelector((s: StoryEditorRootState) => s.editor.restoredFromDevice);

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
      <ConflictPanel />
      <div className="story-editor__main">
        <StoryFieldsForm types={types} />
        <StoryBody />
      </div>
      <aside className="story-editor__side" aria-label="Publishing, revisions and previews">
        <PublishPanel />
        <PreviewPanel />
        <RevisionsPanel />
      </aside>
    </div>
  );
}
