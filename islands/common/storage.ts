import { SESSION_VALID_DAYS } from '../../shared/constants';
import { SAVE_MAP_STORAGE_KEYS } from '../../shared/save-kinds';

// The browser-stored state of spec 2 §4 and spec 1 §3: a local session counts only if it was
// active under 5 days ago; every store is cleared when the profile id or the app version
// changes, when the auth check fails, and on logout. Keys are the spec's.

export const STORAGE_KEYS = {
  profileId: 'profile.profileId',
  lastActive: 'profile.lastActiveSessionMoment',
  lastUpdates: 'profile.lastUpdates',
  appVersion: 'appVersion',
  // The cached id map of each save kind (shared/save-kinds.ts).
  ...SAVE_MAP_STORAGE_KEYS,
  recentUploads: 'recentUploadedPhotoCount',
  // The dashboard's path stack and history cache (islands/dashboard/navigation.ts).
  dashboardPathStack: 'dashboard.pathStack',
  dashboardHistory: 'dashboard.historyCache',
} as const;

const SESSION_VALID_MS = SESSION_VALID_DAYS * 24 * 3600 * 1000;

function store(): Storage | null {
  try {
    return typeof window !== 'undefined' ? window.localStorage : null;
  } catch {
    return null; // storage disabled (private mode, blocked cookies)
  }
}

const pad = (n: number) => String(n).padStart(2, '0');

/** 'DD-MM-YYYY HH:mm' in local time, the spec's format for the last active moment. */
export function formatMoment(d: Date): string {
  return `${pad(d.getDate())}-${pad(d.getMonth() + 1)}-${d.getFullYear()} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

export function parseMoment(s: string | null): Date | null {
  const m = s ? /^(\d{2})-(\d{2})-(\d{4}) (\d{2}):(\d{2})$/.exec(s) : null;
  if (!m) return null;
  return new Date(Number(m[3]), Number(m[2]) - 1, Number(m[1]), Number(m[4]), Number(m[5]));
}

export function readItem<T>(key: string): T | null {
  const raw = store()?.getItem(key);
  if (raw == null) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}

export function writeItem(key: string, value: unknown): void {
  try {
    store()?.setItem(key, JSON.stringify(value));
  } catch {
    // quota exceeded or storage disabled: the stores are caches, losing them is harmless
  }
}

/** Forgets everything this site keeps in the browser. */
export function clearStores(): void {
  const s = store();
  if (!s) return;
  // The app version says which build wrote the stores; it is not member data. Clearing it too
  // made the next page load see a "new version" and wipe the stores again, every time.
  for (const key of Object.values(STORAGE_KEYS)) if (key !== STORAGE_KEYS.appVersion) s.removeItem(key);
}

/** True when the member was active here less than 5 days ago. */
export function isLocalSessionValid(now = new Date()): boolean {
  const last = parseMoment(store()?.getItem(STORAGE_KEYS.lastActive) ?? null);
  return Boolean(last && now.getTime() - last.getTime() < SESSION_VALID_MS);
}

export function touchLocalSession(now = new Date()): void {
  store()?.setItem(STORAGE_KEYS.lastActive, formatMoment(now));
}

/** A new deployment may change what the stores mean: start afresh. */
export function syncAppVersion(version: string): void {
  const s = store();
  if (!s) return;
  if (s.getItem(STORAGE_KEYS.appVersion) !== JSON.stringify(version)) {
    clearStores();
    writeItem(STORAGE_KEYS.appVersion, version);
  }
}

/** After the auth check: keep the stores only for the same member. */
export function rememberProfile(profileId: number | null, lastUpdates?: Record<string, string | null>, now = new Date()): void {
  if (profileId === null) {
    clearStores();
    return;
  }
  if (readItem<number>(STORAGE_KEYS.profileId) !== profileId) {
    const version = readItem<string>(STORAGE_KEYS.appVersion);
    clearStores();
    if (version !== null) writeItem(STORAGE_KEYS.appVersion, version);
    writeItem(STORAGE_KEYS.profileId, profileId);
  }
  if (lastUpdates) writeItem(STORAGE_KEYS.lastUpdates, lastUpdates);
  touchLocalSession(now);
}
