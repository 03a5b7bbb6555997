/// <reference types="jest" />
import { clearStores, formatMoment, isLocalSessionValid, parseMoment, readItem, rememberProfile, STORAGE_KEYS, syncAppVersion, touchLocalSession, writeItem } from './storage';

describe('browser storage rules', () => {
  beforeEach(() => localStorage.clear());

  test('the last active moment is written as DD-MM-YYYY HH:mm and read back', () => {
    const d = new Date(2026, 2, 7, 9, 5);
    expect(formatMoment(d)).toBe('07-03-2026 09:05');
    expect(parseMoment('07-03-2026 09:05')?.getTime()).toBe(d.getTime());
    expect(parseMoment('garbage')).toBeNull();
  });

  test('a local session is valid under 5 days after the last activity, not after', () => {
    const now = new Date(2026, 5, 10, 12, 0);
    expect(isLocalSessionValid(now)).toBe(false);
    touchLocalSession(new Date(now.getTime() - (5 * 24 - 1) * 3600_000));
    expect(isLocalSessionValid(now)).toBe(true);
    touchLocalSession(new Date(now.getTime() - 5 * 24 * 3600_000 - 60_000));
    expect(isLocalSessionValid(now)).toBe(false);
  });

  test('a different profile id clears the stores; the same one keeps them', () => {
    rememberProfile(1);
    writeItem(STORAGE_KEYS.favourites, { 5: true });
    rememberProfile(1);
    expect(readItem(STORAGE_KEYS.favourites)).toEqual({ 5: true });
    rememberProfile(2, { favourites: '2026-01-01T00:00:00.000Z' });
    expect(readItem(STORAGE_KEYS.favourites)).toBeNull();
    expect(readItem(STORAGE_KEYS.profileId)).toBe(2);
    expect(readItem(STORAGE_KEYS.lastUpdates)).toEqual({ favourites: '2026-01-01T00:00:00.000Z' });
  });

  test('a failed auth check (null) and logout clear everything', () => {
    rememberProfile(3);
    writeItem(STORAGE_KEYS.todos, { 1: 1 });
    rememberProfile(null);
    expect(localStorage.length).toBe(0);
    writeItem(STORAGE_KEYS.videoBookmarks, {});
    clearStores();
    expect(localStorage.length).toBe(0);
  });

  test('a new app version clears the stores and records the version', () => {
    syncAppVersion('1.0.0');
    writeItem(STORAGE_KEYS.favourites, { 1: true });
    syncAppVersion('1.0.0');
    expect(readItem(STORAGE_KEYS.favourites)).toEqual({ 1: true });
    syncAppVersion('1.1.0');
    expect(readItem(STORAGE_KEYS.favourites)).toBeNull();
    expect(readItem(STORAGE_KEYS.appVersion)).toBe('1.1.0');
  });
});

describe('clearStores and the app version', () => {
  test('clearing the stores keeps the app version, so the next load does not clear them again', () => {
    localStorage.clear();
    syncAppVersion('1.0.0');
    localStorage.setItem(STORAGE_KEYS.recentUploads, '2');
    clearStores();
    expect(localStorage.getItem(STORAGE_KEYS.recentUploads)).toBeNull();
    localStorage.setItem(STORAGE_KEYS.recentUploads, '3');
    syncAppVersion('1.0.0');
    expect(localStorage.getItem(STORAGE_KEYS.recentUploads)).toBe('3');
  });
});
