import { useSelector } from 'react-redux';
import type { StoryEditorRootState } from '../store';

// The save's status line, in the words issue 37 fixes.

export const STATUS_TEXT = { saving: 'Saving…', saved: 'Saved', offline: 'Offline — kept on this device' } as const;

export function SaveStatus({ onSave }: { onSave: () => void }) {
  // Two selectors, not the whole state: this line renders again only when they change.
  const status = useSelector((s: StoryEditorRootState) => s.editor.status);
  const error = useSelector((s: StoryEditorRootState) => s.editor.error);
  const text = status === 'error' ? error : status === 'idle' ? '' : STATUS_TEXT[status];
  return (
    <div className="story-save">
      <p className={`story-save__status story-save__status--${status}`} role="status" aria-live="polite">{text}</p>
      <button type="button" onClick={onSave} aria-keyshortcuts="Control+S Meta+S">Save</button>
    </div>
  );
}
