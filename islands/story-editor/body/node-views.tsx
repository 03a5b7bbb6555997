import type { ComponentType, ReactPortal } from 'react';
import { createPortal } from 'react-dom';
import type { Node as PMNode } from '@tiptap/pm/model';
import type { NodeViewConstructor } from '@tiptap/pm/view';

// The newsroom's blocks drawn by React inside the body: each node view is a portal rendered
// by the body's component (so the blocks see the editor's services), re-rendered only when
// its own node changes or is selected, never on a keystroke elsewhere.

export interface StoryNodeViewProps {
  node: PMNode;
  selected: boolean;
  updateAttributes: (attrs: Record<string, unknown>) => void;
  deleteNode: () => void;
}

/** The portals of the body's node views, as an external store for useSyncExternalStore. */
export class NodeViewPortals {
  private portals = new Map<number, ReactPortal>();
  private list: ReactPortal[] = [];
  private listeners = new Set<() => void>();
  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };
  snapshot = () => this.list;
  set(id: number, portal: ReactPortal): void {
    this.portals.set(id, portal);
    this.changed();
  }
  delete(id: number): void {
    if (this.portals.delete(id)) this.changed();
  }
  private changed(): void {
    this.list = [...this.portals.values()];
    for (const l of this.listeners) l();
  }
}

const INPUTS = new Set(['INPUT', 'BUTTON', 'SELECT', 'TEXTAREA']);
let seq = 0;

export function reactNodeView(Component: ComponentType<StoryNodeViewProps>, portals: NodeViewPortals): NodeViewConstructor {
  return (initial, view, getPos) => {
    const id = ++seq;
    const dom = document.createElement('div');
    dom.className = 'story-node-view';
    let node = initial;
    let selected = false;
    const updateAttributes = (attrs: Record<string, unknown>) => {
      const pos = getPos();
      if (pos !== undefined) view.dispatch(view.state.tr.setNodeMarkup(pos, undefined, { ...node.attrs, ...attrs }));
    };
    const deleteNode = () => {
      const pos = getPos();
      if (pos !== undefined) view.dispatch(view.state.tr.delete(pos, pos + node.nodeSize));
    };
    const render = () => portals.set(id, createPortal(<Component node={node} selected={selected} updateAttributes={updateAttributes} deleteNode={deleteNode} />, dom, String(id)));
    render();
    return {
      dom,
      update(next) {
        if (next.type !== node.type) return false;
        if (next !== node) {
          node = next;
          render();
        }
        return true;
      },
      selectNode() {
        selected = true;
        render();
      },
      deselectNode() {
        selected = false;
        render();
      },
      // The block's own inputs and buttons are the browser's; a click or drag elsewhere on it
      // is ProseMirror's (it selects or moves the block), as TipTap's node views had it.
      stopEvent(event) {
        const target = event.target as HTMLElement;
        if (!dom.contains(target)) return false;
        const drag = event.type.startsWith('drag') || event.type === 'drop';
        if (INPUTS.has(target.tagName) || target.isContentEditable) return !drag;
        return !(drag || event.type === 'mousedown' || event.type === 'copy' || event.type === 'cut' || event.type === 'paste');
      },
      // React's changes inside an atom are not the document's.
      ignoreMutation: () => true,
      destroy() {
        portals.delete(id);
      },
    };
  };
}
