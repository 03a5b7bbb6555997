import { startTransition, StrictMode, type ReactNode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import type { IslandName } from '../../shared/islands';

/**
 * Finds every placeholder printed by the `island(name)` macro and mounts the island there.
 * The placeholder's server-rendered markup is the no-JavaScript fallback; it is replaced.
 *
 * Each island mounts in a task of its own, after the one that evaluated the page's modules, and
 * renders as a transition (React works in ~5 ms slices; only the commit is one piece): the
 * browser runs every deferred module of a page in one task, so mounting there too made that
 * task the longest at load on a phone (issue 41). The server's markup stays until the commit.
 */
export function mountIsland(name: IslandName, render: (el: HTMLElement) => ReactNode, opts: { hydrate?: boolean } = {}): void {
  const mount = () => {
    document.querySelectorAll<HTMLElement>(`[data-island="${name}"]`).forEach((el) => {
      if (el.dataset.mounted) return;
      el.dataset.mounted = 'true';
      const ui = <StrictMode>{render(el)}</StrictMode>;
      startTransition(() => {
        if (opts.hydrate) hydrateRoot(el, ui);
        else createRoot(el).render(ui);
      });
    });
  };
  whenDocumentParsed(() => inTaskOfItsOwn(mount));
}

/** Runs `fn` once the page's markup is all there (at once if it already is). */
export function whenDocumentParsed(fn: () => void): void {
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', fn, { once: true });
  else fn();
}

const waiting: Array<() => void> = [];

/**
 * Runs `fn` in a later task than this one, one queued function a task, in the order queued: the
 * page's islands mount one after the other with the main thread free in between (for input, and
 * so that no task holds them all).
 */
export function inTaskOfItsOwn(fn: () => void): void {
  waiting.push(fn);
  if (waiting.length === 1) nextTask(runNext);
}

function runNext(): void {
  const fn = waiting[0];
  try {
    fn();
  } finally {
    waiting.shift();
    if (waiting.length) nextTask(runNext);
  }
}

// A message, not setTimeout: no 4 ms clamp after a few nested timers, and not held back like a
// timer in a background tab's first seconds (a timer where there is no MessageChannel: jsdom).
function nextTask(fn: () => void): void {
  if (typeof MessageChannel === 'undefined') {
    setTimeout(fn, 0);
    return;
  }
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    channel.port1.close();
    fn();
  };
  channel.port2.postMessage(null);
}
