import { useSelector } from 'react-redux';
import type { EditorState, LiveState, SaveStatus as Status } from '../slice';
import type { StoryEditorRootState } from '../store';

// The save's status line, in the words issue 37 fixes. While the body is live (issue 42) it
// also answers for the body: offline when the link is down, saving while the server lacks some
// of the body's changes, saved only when it has them all and the other fields are saved.

export const STATUS_TEXT = { saving: 'Saving…', saved: 'Saved', offline: 'Offline — kept on this device' } as const;

/** The line's class and words. */
export function saveStatusOf(s: Pick<EditorState, 'status' | 'error'> & { live: LiveState }): { kind: Status; text: string } {
  const { status, error, live } = s;
  if (status === 'error') return { kind: status, text: error ?? '' };
  const bodyLive = live.mode === 'live';
  if (status === 'offline' || (bodyLive && !live.online)) return { kind: 'offline', text: STATUS_TEXT.offline };
  if (status === 'saving' || (bodyLive && live.unsynced)) return { kind: 'saving', text: STATUS_TEXT.saving };
  return status === 'idle' ? { kind: status, text: '' } : { kind: status, text: STATUS_TEXT[status] };
}

export function SaveStatus({ onSave }: { onSave: () => void }) {
  // Three selectors, not the whole state: this line renders again only when they change.
  const status = useSelector((s: StoryEditorRootState) => s.editor.status);
  const error = useSelector((s: StoryEditorRootState) => s.editor.error);
  const live = useSelector((s: StoryEditorRootState) => s.editor.live);
  const { kind, text } = saveStatusOf({ status, error, live });
  return (
    <div className="story-save">
      <p className={`story-save__status story-save__status--${kind}`} role="status" aria-live="polite">{text}</p>
      <button type="button" onClick={onSave} aria-keyshortcuts="Control+S Meta+S">Save</button>
    </div>
  );
}
