// Which placeholders have come near the screen. A control costs its render and, because it
// is a portal, React's delegated listeners on its placeholder (about 160 addEventListener
// calls each, all in one commit): for 40 cards that was a 114 ms task at load on a phone-speed
// CPU. A control is made when its card comes within a screen's height of the viewport, or
// when a person points at or focuses its placeholder first, so what a person sees is the same;
// the rest are made a few at a time in idle moments after the page has loaded, so a jump down
// the page (End, a link to a card) finds them made too.

/** How far outside the viewport a placeholder counts as near: one screen above and below. */
export const NEAR_MARGIN = '100% 0px 100% 0px';
/** Controls made in one idle moment: a commit of four portals stays far under a frame's budget. */
export const IDLE_BATCH = 4;

export interface NearWatcher {
  /** Watches an element until it is near; `onNear` is called once (never again for that element). */
  watch(el: HTMLElement, onNear: () => void): void;
  /** Stops watching an element (its placeholder left the page). */
  unwatch(el: HTMLElement): void;
  disconnect(): void;
}

/** Where IntersectionObserver is missing, everything is near at once (the controls as before). */
export function nearWatcher(margin = NEAR_MARGIN): NearWatcher {
  const waiting = new Map<HTMLElement, () => void>();
  // Elements found near once: watching them again (a rescan of the page) does nothing.
  const done = new WeakSet<HTMLElement>();
  let idleQueued = false;
  let stopped = false;
  const whenIdle = (fn: () => void) =>
    typeof requestIdleCallback === 'function' ? requestIdleCallback(fn, { timeout: 2000 }) : window.setTimeout(fn, 50);
  const drain = () => {
    idleQueued = false;
    if (stopped) return;
    // The first ones in document order: the next cards down the page.
    for (const el of [...waiting.keys()].slice(0, IDLE_BATCH)) near(el);
    queueDrain();
  };
  function queueDrain() {
    if (idleQueued || stopped || !waiting.size) return;
    idleQueued = true;
    // Not before the page has loaded: until then idle moments belong to the first paint.
    if (document.readyState === 'complete') whenIdle(drain);
    else window.addEventListener('load', () => whenIdle(drain), { once: true });
  }
  const near = (el: HTMLElement) => {
    const onNear = waiting.get(el);
    if (!onNear) return;
    waiting.delete(el);
    done.add(el);
    observer?.unobserve(el);
    el.removeEventListener('pointerdown', onInput, true);
    el.removeEventListener('focusin', onInput, true);
    onNear();
  };
  function onInput(this: HTMLElement) {
    near(this);
  }
  const observer =
    typeof IntersectionObserver === 'function'
      ? new IntersectionObserver(
          (entries) => entries.forEach((e) => e.isIntersecting && near(e.target as HTMLElement)),
          { rootMargin: margin },
        )
      : null;
  return {
    watch(el, onNear) {
      if (done.has(el)) return;
      if (!observer) {
        done.add(el);
        return onNear();
      }
      stopped = false; // watched again after a disconnect (React's StrictMode remounts)
      if (waiting.has(el)) return;
      waiting.set(el, onNear);
      observer.observe(el);
      el.addEventListener('pointerdown', onInput, true);
      el.addEventListener('focusin', onInput, true);
      queueDrain();
    },
    unwatch(el) {
      if (!waiting.delete(el)) return;
      observer?.unobserve(el);
      el.removeEventListener('pointerdown', onInput, true);
      el.removeEventListener('focusin', onInput, true);
    },
    disconnect() {
      stopped = true;
      observer?.disconnect();
      for (const el of waiting.keys()) {
        el.removeEventListener('pointerdown', onInput, true);
        el.removeEventListener('focusin', onInput, true);
      }
      waiting.clear();
    },
  };
}
