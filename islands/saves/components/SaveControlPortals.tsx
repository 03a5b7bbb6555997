import { startTransition, useEffect, useLayoutEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { showControl, type Placeholder, type PlaceholderSet } from '../placeholders';
import { SaveControl } from './SaveControl';

// Every save control of the page, each in its placeholder through a portal of the island's one
// React root: a root per placeholder was a React root per card (40 on a hub page, again for each
// new page of results), each created, scheduled and rendered on its own. New placeholders render
// in a transition, so React does them in slices between which the page answers taps and paints;
// the server's login link stays until its control replaces it in the same frame.

function ControlPortal({ placeholder: p }: { placeholder: Placeholder }) {
  // After the portal appended the control, before the frame is drawn.
  useLayoutEffect(() => showControl(p), [p]);
  return createPortal(<SaveControl type={p.type} objectId={p.objectId} name={p.name} />, p.el, p.key);
}

export function SaveControlPortals({ placeholders }: { placeholders: PlaceholderSet }) {
  const [list, setList] = useState(placeholders.current);
  useEffect(() => {
    const update = () => startTransition(() => setList(placeholders.current()));
    const unsubscribe = placeholders.subscribe(update);
    update(); // a rescan between the first render and this subscription
    return unsubscribe;
  }, [placeholders]);
  return list.map((p) => <ControlPortal key={p.key} placeholder={p} />);
}
