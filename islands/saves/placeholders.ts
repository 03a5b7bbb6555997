import type { ControlType } from './types';

// The save placeholders in the page (templates/partials/save-controls.njk, and the listing
// search's cards, which print the same): what each asks for, and which are in the document
// now. The saves island renders one control per placeholder through a portal of its one root
// (components/SaveControlPortals.tsx); a rescan is how islands that print cards after load say
// the set has changed.

export interface Placeholder {
  /** The portal's key, the same for as long as the element lives. */
  key: string;
  el: HTMLElement;
  type: ControlType;
  objectId: number;
  name?: string;
  /** What the server printed inside (the login link), taken out once the control is in. */
  fallback: ChildNode[];
}

const CONTROL_TYPES: readonly string[] = ['listing', 'listing-compact', 'article', 'video', 'event'] satisfies ControlType[];

/** The control a placeholder asks for, or null when it names none (it stays a login link). */
export function readPlaceholder(el: HTMLElement, key: string): Placeholder | null {
  const type = el.dataset.save ?? '';
  const objectId = Number(el.dataset.objectId);
  if (!CONTROL_TYPES.includes(type) || !Number.isInteger(objectId) || objectId <= 0) return null;
  return { key, el, type: type as ControlType, objectId, name: el.dataset.name, fallback: Array.from(el.childNodes) };
}

/** The control is in the placeholder: the no-JavaScript login link goes, and the page can see it is live. */
export function showControl(p: Placeholder): void {
  for (const node of p.fallback) if (node.parentNode === p.el) node.remove();
  p.el.hidden = false;
  p.el.classList.add('is-enhanced');
  p.el.dataset.mounted = 'true';
}

export interface PlaceholderSet {
  /** The placeholders found by the last rescan, in document order. */
  current(): readonly Placeholder[];
  /** Reads the document again: new placeholders join, those no longer in it leave. */
  rescan(): readonly Placeholder[];
  /** Called after a rescan that changed the set. */
  subscribe(onChange: () => void): () => void;
}

export function placeholderSet(root: ParentNode = document): PlaceholderSet {
  // Read once per element: a placeholder that leaves and comes back (cards moved away and
  // back) keeps its key and what it printed.
  const known = new WeakMap<HTMLElement, Placeholder | null>();
  const listeners = new Set<() => void>();
  let list: readonly Placeholder[] = [];
  let nextKey = 0;
  return {
    current: () => list,
    rescan() {
      const found: Placeholder[] = [];
      for (const el of root.querySelectorAll<HTMLElement>('[data-island="saves"]')) {
        let p = known.get(el);
        if (p === undefined) {
          p = readPlaceholder(el, `save-${(nextKey += 1)}`);
          known.set(el, p);
        }
        if (p) found.push(p);
      }
      if (found.length !== list.length || found.some((p, i) => p !== list[i])) {
        list = found;
        listeners.forEach((l) => l());
      }
      return list;
    },
    subscribe(onChange) {
      listeners.add(onChange);
      return () => void listeners.delete(onChange);
    },
  };
}
