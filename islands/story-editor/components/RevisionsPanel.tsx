import { useEffect, useState } from 'react';
import { useDispatch, useSelector, useStore } from 'react-redux';
import { STORY_FIELD_LABELS, STORY_FIELDS, STORY_STATUS_LABELS } from '../../../shared/newsroom';
import type { StoryRevision, StoryRevisionSummary } from '../../../shared/story-dto';
import { docPlainText, wordDiff } from '../doc-text';
import { hasChanges, sameJson } from '../fields';
import { useServices } from '../services';
import { editorActions } from '../slice';
import type { StoryEditorRootState } from '../store';
import { FieldValue } from './FieldValue';

// Revisions: the list, any two compared (the body word by word, the other fields in a table),
// and any one restored as a new draft.

/** Why a revision was kept, in words (the API's codes otherwise). */
const REASONS: Record<string, string> = { first_save: 'first save', explicit: 'saved', interval: 'autosave', publish: 'published', unpublish: 'unpublished', restore: 'restored' };

const when = (iso: string) => new Date(iso).toLocaleString('en-CA', { timeZone: 'America/Toronto', dateStyle: 'medium', timeStyle: 'short' });

function Compare({ older, newer }: { older: StoryRevision; newer: StoryRevision }) {
  const diff = wordDiff(docPlainText(older.fields.doc), docPlainText(newer.fields.doc));
  const fields = STORY_FIELDS.filter((f) => f !== 'doc' && !sameJson(older.fields[f], newer.fields[f]));
  return (
    <div className="story-compare">
      <h3>Version {older.version} → version {newer.version}</h3>
      <p className="story-compare__diff" aria-label="Body changes: removed words struck through, added words underlined">
        {diff.map((d, i) => (d.op === 'same' ? <span key={i}>{d.text}</span> : d.op === 'add' ? <ins key={i}>{d.text}</ins> : <del key={i}>{d.text}</del>))}
      </p>
      {fields.length > 0 ? (
        <div className="staff-table-wrap">
          <table className="staff-table">
            <thead><tr><th scope="col">Field</th><th scope="col">Version {older.version}</th><th scope="col">Version {newer.version}</th></tr></thead>
            <tbody>
              {fields.map((f) => (
                <tr key={f}>
                  <th scope="row">{STORY_FIELD_LABELS[f]}</th>
                  <td data-label="Before"><FieldValue field={f} value={older.fields[f]} /></td>
                  <td data-label="After"><FieldValue field={f} value={newer.fields[f]} /></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p>No other field differs.</p>
      )}
    </div>
  );
}

/** `showList`: opened from its placeholder (StoryEditor), so the list loads at once. */
export function RevisionsPanel({ showList = false }: { showList?: boolean }) {
  const dispatch = useDispatch();
  const store = useStore<StoryEditorRootState>();
  const { api, autosaver } = useServices();
  const id = useSelector((s: StoryEditorRootState) => s.editor.id);
  const [list, setList] = useState<StoryRevisionSummary[] | null>(null);
  const [picked, setPicked] = useState<number[]>([]);
  const [compared, setCompared] = useState<[StoryRevision, StoryRevision] | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  useEffect(() => {
    if (!showList || id === null) return;
    let live = true;
    api.revisions(id).then(
      (l) => live && setList(l),
      () => live && setMessage('The revisions could not be loaded.'),
    );
    return () => {
      live = false;
    };
    // Once, when opened.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  if (id === null) return null;

  const load = () => {
    setMessage(null);
    api.revisions(id).then(setList, () => setMessage('The revisions could not be loaded.'));
  };
  const toggle = (rid: number) => setPicked((p) => (p.includes(rid) ? p.filter((x) => x !== rid) : [...p, rid].slice(-2)));
  const compare = async () => {
    try {
      const revs = await Promise.all(picked.map((rid) => api.revision(id, rid)));
      revs.sort((a, b) => a.version - b.version);
      setCompared([revs[0], revs[1]]);
    } catch {
      setMessage('The revisions could not be loaded.');
    }
  };
  const restore = async (r: StoryRevisionSummary) => {
    if (!window.confirm(`Restore version ${r.version} as a new draft? The current text stays in the revisions.`)) return;
    try {
      // The current text is kept as a revision first, unless the newest one already holds it.
      const e = store.getState().editor;
      await autosaver.flush(!(list?.[0]?.version === e.baseVersion && !hasChanges(e.fields, e.saved)));
      dispatch(editorActions.storyReplaced(await api.restoreRevision(id, r.id)));
      load();
      // After load(), which clears the message.
      setMessage(`Version ${r.version} restored as the working draft.`);
    } catch {
      setMessage('The revision could not be restored.');
    }
  };

  return (
    <section className="story-panel" aria-labelledby="story-revisions-title">
      <h2 id="story-revisions-title" className="story-panel__title">Revisions</h2>
      {list === null ? (
        <button type="button" className="button--secondary" onClick={load}>Show revisions</button>
      ) : (
        <>
          <ul className="story-revisions">
            {list.map((r) => (
              <li key={r.id} className="story-revision">
                <input id={`rev-${r.id}`} type="checkbox" checked={picked.includes(r.id)} onChange={() => toggle(r.id)} />
                <label htmlFor={`rev-${r.id}`}>
                  Version {r.version}, {when(r.created_at)} · {r.author_name} · {STORY_STATUS_LABELS[r.status] ?? r.status}
                  {r.reason ? ` · ${REASONS[r.reason] ?? r.reason}` : ''}
                </label>
                <button type="button" className="button--quiet" onClick={() => void restore(r)} aria-label={`Restore version ${r.version} as new draft`}>Restore as new draft</button>
              </li>
            ))}
          </ul>
          {!list.length && <p>No revisions yet.</p>}
          <button type="button" className="button--secondary" disabled={picked.length !== 2} onClick={() => void compare()}>Compare the two picked</button>
        </>
      )}
      {message && <p role="status">{message}</p>}
      {compared && <Compare older={compared[0]} newer={compared[1]} />}
    </section>
  );
}
