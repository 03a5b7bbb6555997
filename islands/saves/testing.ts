/// <reference types="jest" />
import type { SavesApi } from './api';
import type { SavesSagaContext } from './sagas';
import { profileFromInitialState } from './slices/profile';
import { createSavesStore } from './store';
import type { SavesInitialState } from './types';

// Test helpers: a store over a fake API (every call a jest.fn) and a way to let sagas run.

export const MEMBER: TestMember = { id: 7, email: 'saver@example.com', calendarSync: null };

/** The member the auth check names (GET /profiles/hi/), as a test states them. */
export interface TestMember {
  id: number;
  email: string;
  calendarSync: boolean | null;
}

const statusOf = (m: TestMember) => ({ id: m.id, email: m.email, full_name: '', avatar_url: null, calendar_sync: m.calendarSync, is_staff: false, last_updates: {} });

export function fakeApi(overrides: Partial<Record<keyof SavesApi, jest.Mock>> = {}) {
  return {
    authStatus: jest.fn().mockResolvedValue(statusOf(MEMBER)),
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

/**
 * A store as a page makes it: `member` null is a guest (no signed-in cookie); otherwise the
 * signed-in cookie is there and the auth check names that member (unless the test's API says
 * otherwise).
 */
export function setup(initial: Partial<SavesInitialState> & { member?: TestMember | null } = {}, api = fakeApi()) {
  const context = { api: api as unknown as SavesApi, navigate: jest.fn(), requestLogin: jest.fn() };
  const { member = MEMBER, ...rest } = initial;
  const state: SavesInitialState = { kinds: ['favourites', 'todos', 'ratings'], calendarEnabled: true, ...rest };
  if (member) {
    // The test's own answer (its last_updates, or its failure), naming this member.
    const asked = api.authStatus;
    api.authStatus = jest.fn(async () => ({ ...statusOf(member), last_updates: ((await asked()) as { last_updates?: object }).last_updates ?? {} }));
  }
  const store = createSavesStore({ profile: profileFromInitialState(state, member !== null) }, context as SavesSagaContext);
  return { store, api, context };
}

/** Lets pending promises and the sagas waiting on them run. */
export const settle = async () => {
  for (let i = 0; i < 5; i += 1) await Promise.resolve();
  await new Promise((resolve) => setTimeout(resolve, 0));
};
