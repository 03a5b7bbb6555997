import type { Action } from '@reduxjs/toolkit';
import { call, getContext, put, select, takeLatest } from 'redux-saga/effects';
import { siteSearchUrl } from '../../../shared/site-search';
import type { SiteSearchPage } from '../api';
import { apiQuery, PARAM_ACTIONS, search } from '../slices/search';
import type { SearchAppState, SearchContext } from '../store';

// One flow: a parameter change → the URL (a new history entry, except when the change came
// from the history itself) → the search. takeLatest: a newer change cancels the older request.

const isParamChange = (action: Action) => PARAM_ACTIONS.some((a) => a.match(action));

export function* searchFlow(action: Action) {
  const api: SearchContext['api'] = yield getContext('api');
  const pushUrl: SearchContext['pushUrl'] = yield getContext('pushUrl');
  const debug: SearchContext['debug'] = yield getContext('debug');
  const { params, generation }: SearchAppState['search'] = yield select((s: SearchAppState) => s.search);
  if (!search.restored.match(action)) yield call(pushUrl, siteSearchUrl(params));
  if (!params.q) return;
  try {
    const page: SiteSearchPage = yield call(api.search, apiQuery(params));
    const { count, counts, count_estimated, match, corrected, results } = page;
    yield put(search.loaded({ generation, result: { count, counts, count_estimated, match, corrected, results } }));
  } catch (err) {
    yield call(debug, err);
    yield put(search.failed({ generation }));
  }
}

export function* searchSaga() {
  yield takeLatest(isParamChange, searchFlow);
}
