import { StrictMode, type ReactNode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import type { IslandName } from '../../shared/islands';

/**
 * Finds every placeholder printed by the `island(name)` macro and mounts the island there.
 * The placeholder's server-rendered markup is the no-JavaScript fallback; it is replaced.
 */
export function mountIsland(name: IslandName, render: (el: HTMLElement) => ReactNode, opts: { hydrate?: boolean } = {}): void {
  const mount = () => {
    document.querySelectorAll<HTMLElement>(`[data-island="${name}"]`).forEach((el) => {
      if (el.dataset.mounted) return;
      el.dataset.mounted = 'true';
      const ui = <StrictMode>{render(el)}</StrictMode>;
      if (opts.hydrate) hydrateRoot(el, ui);
      else createRoot(el).render(ui);
    });
  };
  whenDocumentParsed(mount);
}

/** Runs `fn` once the page's markup is all there (at once if it already is). */
export function whenDocumentParsed(fn: () => void): void {
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', fn, { once: true });
  else fn();
}
