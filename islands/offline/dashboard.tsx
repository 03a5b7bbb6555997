import { useEffect, useState, type ComponentType } from 'react';

// The dashboard's offline side (islands/offline/dashboard-offline.ts and the offline line,
// OfflineNotice.tsx) loads as the island starts, in its own chunk: it is not needed for the
// first paint, and the dashboard's first load stays within the JavaScript budget
// (scripts/js-budget.ts). Each API call waits for it; should it fail to load, calls go straight
// to the API as before and no line shows.

type Fn = (...args: unknown[]) => Promise<unknown>;
type OfflineModule = typeof import('./dashboard-offline');

let loading: Promise<OfflineModule | null> | null = null;
const load = () => (loading ??= import('./dashboard-offline').catch(() => null));

export function withOffline<A extends object>(api: A, member: number | null | undefined): A {
  if (!member || typeof indexedDB === 'undefined') return api;
  const ready: Promise<Record<string, Fn>> = load().then((m) => (m ? m.startOffline(api, member) : api) as unknown as Record<string, Fn>);
  const calls: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(api)) calls[name] = typeof fn === 'function' ? async (...args: unknown[]) => (await ready)[name](...args) : fn;
  return calls as A;
}

/** Where the offline line shows ('Offline — saved on …'), once its code has loaded. */
export function OfflineNoticeSlot() {
  const [Notice, setNotice] = useState<ComponentType | null>(null);
  useEffect(() => {
    let live = true;
    if (loading) void loading.then((m) => live && m && setNotice(() => m.OfflineNotice));
    return () => {
      live = false;
    };
  }, []);
  return Notice ? <Notice /> : null;
}
