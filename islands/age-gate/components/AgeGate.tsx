import { useEffect, useId } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import { Dialog } from '../../common/Dialog';
import { AGE_GATE_REMEMBER_DAYS } from '../../../shared/constants';
import { gate } from '../slices/gate';
import type { AgeGateRootState } from '../store';

// The dialog over the gated page. While it is open everything else on the page is inert
// (no focus, no clicks, hidden from assistive technology), so Tab stays in the dialog and
// only its two answers close it: Esc, the backdrop and a close button do not exist for it.

/** Makes every child of <body> but the one holding `keep` inert; answers the undo. */
function makeRestInert(keep: HTMLElement): () => void {
  const changed: HTMLElement[] = [];
  for (const el of Array.from(document.body.children) as HTMLElement[]) {
    if (el.contains(keep) || el.inert || el.tagName === 'SCRIPT') continue;
    el.inert = true;
    changed.push(el);
  }
  document.documentElement.classList.add('has-age-gate');
  return () => {
    for (const el of changed) el.inert = false;
    document.documentElement.classList.remove('has-age-gate');
  };
}

export function AgeGate({ root }: { root: HTMLElement }) {
  const { status, remember, legalAge } = useSelector((s: AgeGateRootState) => s.gate);
  const dispatch = useDispatch();
  const textId = useId();
  const open = status === 'open';

  useEffect(() => (open ? makeRestInert(root) : undefined), [open, root]);

  if (!open) return null;
  return (
    <Dialog title={`Are you ${legalAge} or older?`} onClose={() => undefined} dismissible={false} describedBy={textId} className="age-gate-dialog">
      <p id={textId}>This section is about cannabis. You must be of legal age ({legalAge}+) to continue.</p>
      <label className="checkbox">
        <input type="checkbox" checked={remember} onChange={(e) => dispatch(gate.rememberToggled(e.target.checked))} /> Remember me for {AGE_GATE_REMEMBER_DAYS} days
      </label>
      <div className="age-gate__actions">
        <button type="button" onClick={() => dispatch(gate.accepted())}>
          Yes, I am {legalAge} or older
        </button>
        <button type="button" className="button--secondary" onClick={() => dispatch(gate.declined())}>
          No, take me home
        </button>
      </div>
    </Dialog>
  );
}
