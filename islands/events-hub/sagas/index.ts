import { call, getContext, put, select, takeLatest, takeLeading } from 'redux-saga/effects';
import type { PayloadAction } from '@reduxjs/toolkit';
import type { Page } from '../../../shared/dto';
import type { HubEvent } from '../../../shared/events-hub';
import { EVENTS_HUB } from '../../../shared/constants';
import type { EventsHubApi } from '../api';
import { hub, hubUrl, nextOffset, type HubState } from '../slices/hub';

// A day choice loads the day's featured events and the first page of the list in one call
// (offset 0, featured + one page) and records the day in the URL; load-more asks for the
// next page from where the list ends.

export interface EventsHubContext {
  api: EventsHubApi;
  pushUrl(url: string): void;
}

function* ctx<K extends keyof EventsHubContext>(key: K) {
  return (yield getContext(key)) as EventsHubContext[K];
}

const state = (s: { hub: HubState }) => s.hub;

export function* dayFlow(action: PayloadAction<{ date: string | null; push: boolean }>) {
  const { date, push } = action.payload;
  if (push) yield call(yield* ctx('pushUrl'), hubUrl(date));
  const api = yield* ctx('api');
  try {
    const page: Page<HubEvent> = yield call(api.events, { date, offset: 0, limit: EVENTS_HUB.featuredCount + EVENTS_HUB.loadMoreLimit });
    yield put(hub.dayLoaded({ date, page }));
  } catch {
    yield put(hub.failed({ date, during: 'day' }));
  }
}

export function* moreFlow() {
  const s: HubState = yield select(state);
  const offset = nextOffset(s);
  if (offset === null || s.status !== 'loadingMore') return;
  const api = yield* ctx('api');
  try {
    const page: Page<HubEvent> = yield call(api.events, { date: s.date, offset, limit: EVENTS_HUB.loadMoreLimit });
    yield put(hub.moreLoaded({ date: s.date, offset, page }));
  } catch {
    yield put(hub.failed({ date: s.date, during: 'more' }));
  }
}

export function* eventsHubSaga() {
  yield takeLatest(hub.dateChosen.type, dayFlow);
  yield takeLeading(hub.moreRequested.type, moreFlow);
}
