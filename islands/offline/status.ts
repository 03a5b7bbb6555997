// What the dashboard's offline line says, as a tiny store the line subscribes to
// (useSyncExternalStore): when the lists shown were saved, how many actions wait for the
// connection, and a one-off notice (sent, or refused).

export interface OfflineStatus {
  /** Set while the lists shown come from this device: the oldest save among them (ISO 8601). */
  savedAt: string | null;
  /** Actions taken offline, not sent yet. */
  queued: number;
  notice: string | null;
}

let state: OfflineStatus = { savedAt: null, queued: 0, notice: null };
const listeners = new Set<() => void>();

function set(next: Partial<OfflineStatus>): void {
  state = { ...state, ...next };
  for (const l of listeners) l();
}

export const getOfflineStatus = (): OfflineStatus => state;

export function subscribeOfflineStatus(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** A list was read from this device: the line shows the oldest such save. */
export function shownFromDevice(savedAt: string): void {
  if (!state.savedAt || savedAt < state.savedAt) set({ savedAt, notice: null });
}

/** The server answered again: the lists are live. */
export const shownLive = (): void => (state.savedAt ? set({ savedAt: null }) : undefined);
export const setQueued = (queued: number): void => (queued !== state.queued ? set({ queued }) : undefined);
export const setNotice = (notice: string | null): void => set({ notice });

/** For tests. */
export function resetOfflineStatus(): void {
  state = { savedAt: null, queued: 0, notice: null };
}
