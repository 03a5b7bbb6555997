import { startTransition, useEffect, useLayoutEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { nearWatcher } from '../near-viewport';
import { showControl, type Placeholder, type PlaceholderSet } from '../placeholders';
import { SaveControl } from './SaveControl';

// Every save control of the page, each in its placeholder through a portal of the island's one
// React root: a root per placeholder was a React root per card (40 on a hub page, again for each
// new page of results), each created, scheduled and rendered on its own. New placeholders render
// in a transition, so React does them in slices between which the page answers taps and paints;
// the server's login link stays until its control replaces it in the same frame. A control is
// made only when its card comes near the screen (../near-viewport.ts): a hub's 40 at once were
// the page's longest task at load.

function ControlPortal({ placeholder: p }: { placeholder: Placeholder }) {
  // After the portal appended the control, before the frame is drawn.
  useLayoutEffect(() => showControl(p), [p]);
  return createPortal(<SaveControl type={p.type} objectId={p.objectId} name={p.name} />, p.el, p.key);
}

export function SaveControlPortals({ placeholders }: { placeholders: PlaceholderSet }) {
  const [list, setList] = useState(placeholders.current);
  // The placeholders (by key) that have come near the screen; only ever added to, so a control
  // stays, and one whose card leaves and comes back (the same key) returns at once.
  const [near, setNear] = useState<ReadonlySet<string>>(() => new Set());
  const [watch] = useState(nearWatcher);
  useEffect(() => {
    const update = () => startTransition(() => setList(placeholders.current()));
    const unsubscribe = placeholders.subscribe(update);
    update(); // a rescan between the first render and this subscription
    return unsubscribe;
  }, [placeholders]);
  useEffect(() => {
    for (const p of list) {
      watch.watch(p.el, () => startTransition(() => setNear((keys) => new Set(keys).add(p.key))));
    }
    return () => {
      // Placeholders that left the page stop being watched.
      for (const p of list) if (!p.el.isConnected) watch.unwatch(p.el);
    };
  }, [list, watch]);
  useEffect(() => () => watch.disconnect(), [watch]);
  return list.filter((p) => near.has(p.key)).map((p) => <ControlPortal key={p.key} placeholder={p} />);
}
