import { useEffect, useId, useState } from 'react';
import { useSelector } from 'react-redux';
import { ApiError } from '../../common/api';
import { Dialog } from '../../common/Dialog';
import type { StoryCheck, StoryDTO } from '../../../shared/story-dto';
import { useServices } from '../services';
import type { StoryEditorRootState } from '../store';

// Publishing's dialog: it saves, then shows the checks (blocking ones in red, warnings in
// amber); an editor may publish over a blocking one with a reason. Loaded when first opened.

function ChecksList({ checks }: { checks: StoryCheck[] }) {
  if (!checks.length) return <p className="story-check story-check--ok">All checks pass.</p>;
  return (
    <ul className="story-checks">
      {checks.map((c) => (
        <li key={c.code} className={`story-check ${c.blocking ? 'story-check--blocking' : 'story-check--warning'}`}>
          <strong>{c.blocking ? 'Must fix' : 'Warning'}:</strong> {c.message}
        </li>
      ))}
    </ul>
  );
}

export function PublishDialog({ id, update, onDone, onClose }: { id: number; update: boolean; onDone: (s: StoryDTO) => void; onClose: () => void }) {
  const { api, autosaver } = useServices();
  const override = useSelector((s: StoryEditorRootState) => s.editor.meta?.permissions.override ?? false);
  const reasonId = useId();
  const [checks, setChecks] = useState<StoryCheck[] | null>(null);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    let live = true;
    void autosaver
      .flush(true)
      .then(() => api.checks(id))
      .then(
        (c) => live && setChecks(c),
        () => live && setError('The checks could not be loaded. Check your connection and try again.'),
      );
    return () => {
      live = false;
    };
  }, [api, autosaver, id]);
  const blocking = (checks ?? []).some((c) => c.blocking);
  const publish = async () => {
    setBusy(true);
    setError(null);
    try {
      onDone(await api.publish(id, blocking ? reason.trim() : undefined));
    } catch (err) {
      const body = err instanceof ApiError ? (err.body as { checks?: StoryCheck[] }) : {};
      if (body.checks) setChecks(body.checks);
      setError(err instanceof ApiError ? (err.first('override_reason') ?? err.first('non_field_errors') ?? err.message) : 'Not published: no connection.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog title={update ? 'Update the published story' : 'Publish'} onClose={onClose} className="story-dialog">
      {checks === null && !error && <p role="status">Saving and checking…</p>}
      {checks && <ChecksList checks={checks} />}
      {blocking && !override && <p>Fix what must be fixed first, or ask an editor.</p>}
      {blocking && override && (
        <div className="story-field">
          <label htmlFor={reasonId}>Reason to publish anyway (required)</label>
          <textarea id={reasonId} rows={3} value={reason} onChange={(e) => setReason(e.target.value)} required />
        </div>
      )}
      {error && <p className="field-error" role="alert">{error}</p>}
      <div className="story-dialog__actions">
        <button type="button" disabled={busy || checks === null || (blocking && (!override || !reason.trim()))} onClick={() => void publish()}>
          {blocking ? 'Publish anyway' : update ? 'Update now' : 'Publish now'}
        </button>
        <button type="button" className="button--secondary" onClick={onClose}>Cancel</button>
      </div>
    </Dialog>
  );
}
