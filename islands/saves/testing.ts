/// <reference types="jest" />
import type { SavesApi } from './api';
import type { SavesSagaContext } from './sagas';
import { profileFromInitialState } from './slices/profile';
import { createSavesStore } from './store';
import type { SavesInitialState } from './types';

// Test helpers: a store over a fake API (every call a jest.fn) and a way to let sagas run.

export const MEMBER = { id: 7, email: 'saver@example.com', calendarSync: null };

export function fakeApi(overrides: Partial<Record<keyof SavesApi, jest.Mock>> = {}) {
  return {
    authStatus: jest.fn().mockResolvedValue({ id: 7, last_updates: {} }),
    ids: jest.fn().mockResolvedValue({}),
    create: jest.fn().mockResolvedValue({ id: 100, date_created: '2026-11-01T10:00:00.000Z' }),
    remove: jest.fn().mockResolvedValue(null),
    saveEvent: jest.fn().mockResolvedValue({ id: 300, date_created: '2026-11-01T10:00:00.000Z' }),
    rate: jest.fn().mockImplementation((_l: number, rating: number) => Promise.resolve({ id: 200, rating, date_created: '2026-11-01T10:00:00.000Z' })),
    updateRating: jest.fn().mockImplementation((id: number, rating: number) => Promise.resolve({ id, rating, date_updated: '2026-11-01T10:00:00.000Z' })),
    setCalendarSync: jest.fn().mockResolvedValue({}),
    ...overrides,
  };
}

export function setup(initial: Partial<SavesInitialState> = {}, api = fakeApi()) {
  const context = { api: api as unknown as SavesApi, navigate: jest.fn(), requestLogin: jest.fn() };
  const state: SavesInitialState = { member: MEMBER, kinds: ['favourites', 'todos', 'ratings'], calendarEnabled: true, ...initial };
  const store = createSavesStore({ profile: profileFromInitialState(state) }, context as SavesSagaContext);
  return { store, api, context };
}

/** Lets pending promises and the sagas waiting on them run. */
export const settle = async () => {
  for (let i = 0; i < 5; i += 1) await Promise.resolve();
  await new Promise((resolve) => setTimeout(resolve, 0));
};
