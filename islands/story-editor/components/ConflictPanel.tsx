import { useDispatch, useSelector, useStore } from 'react-redux';
import { STORY_FIELD_LABELS, type StoryDoc } from '../../../shared/newsroom';
import type { StoryConflict } from '../../../shared/story-dto';
import { useServices } from '../services';
import { editorActions } from '../slice';
import type { StoryEditorRootState, StoryEditorStore } from '../store';
import { FieldValue } from './FieldValue';

// A 409's conflicts: each field someone else changed meanwhile, both versions side by side;
// the writer keeps one (or, for the body, both: theirs after mine, to edit together). Until
// then the writer's version stays in the working copy and on this device. The body is never
// offered while it is live.

export function combinedDoc(mine: StoryDoc, theirs: StoryDoc): StoryDoc {
  return { type: 'doc', content: [...(mine?.content ?? []), { type: 'horizontalRule' }, ...(theirs?.content ?? [])] };
}

export function ConflictPanel() {
  const dispatch = useDispatch();
  const { autosaver } = useServices();
  // While live the body has no conflicts: everyone's typing merges in the shared document.
  const live = useSelector((s: StoryEditorRootState) => s.editor.live.mode === 'live');
  const all = useSelector((s: StoryEditorRootState) => s.editor.conflicts);
  const conflicts = live ? all.filter((c) => c.field !== 'doc') : all;
  // "Mine" is the working copy as it is now: typing since the save is kept.
  const fields = useSelector((s: StoryEditorRootState) => s.editor.fields);
  const store = useStore<StoryEditorRootState>() as StoryEditorStore;
  /** The working copy as it is at the click, the body as typed (it is read lazily). */
  const current = () => {
    store.body.sync();
    return store.getState().editor.fields;
  };
  if (!conflicts.length) return null;
  const resolve = (c: StoryConflict, value: unknown) => {
    dispatch(editorActions.conflictResolved({ field: c.field, value }));
    void autosaver.flush(false);
  };
  return (
    <section className="story-conflicts" aria-labelledby="story-conflicts-title">
      <h2 id="story-conflicts-title">Someone else changed this story</h2>
      <p>Your other changes are saved. For each field below, choose which version to keep.</p>
      {conflicts.map((c) => (
        <div key={c.field} className="story-conflict">
          <h3>{STORY_FIELD_LABELS[c.field]}</h3>
          <div className="story-conflict__sides">
            <div className="story-conflict__side">
              <h4>Yours</h4>
              <FieldValue field={c.field} value={fields[c.field]} />
            </div>
            <div className="story-conflict__side">
              <h4>Theirs</h4>
              <FieldValue field={c.field} value={c.theirs} />
            </div>
          </div>
          <div className="story-conflict__actions">
            <button type="button" onClick={() => resolve(c, current()[c.field])} aria-label={`Keep mine: ${STORY_FIELD_LABELS[c.field]}`}>Keep mine</button>
            <button type="button" className="button--secondary" onClick={() => resolve(c, c.theirs)} aria-label={`Keep theirs: ${STORY_FIELD_LABELS[c.field]}`}>Keep theirs</button>
            {c.field === 'doc' && (
              <button type="button" className="button--secondary" onClick={() => resolve(c, combinedDoc(current().doc, c.theirs as StoryDoc))}>Combine</button>
            )}
          </div>
          {c.field === 'doc' && <p className="story-field__hint">Combine puts yours first, a divider, then theirs, in the body to edit together.</p>}
        </div>
      ))}
    </section>
  );
}
