import type { Action } from '@reduxjs/toolkit';
import { all, call, debounce, getContext, put, select, takeLatest, takeLeading } from 'redux-saga/effects';
import type { ListingDTO, Page } from '../../../shared/dto';
import { criteriaApiQuery, criteriaPageUrl, HUB_PAGE_SIZE, NEARBY_ID } from '../../../shared/listing-hub';
import { CRITERIA_ACTIONS, filters } from '../slices/filters';
import { currentPage, nextPageOffset, results } from '../slices/results';
import { SUGGEST_DEBOUNCE_MS, SUGGEST_MIN_CHARS, suggestions, type SuggestedPlace } from '../slices/suggestions';
import type { ListingSearchContext, ListingSearchState } from '../store';
import { neighbourhoodHubChosen } from '../actions';

// One saga per flow (spec 2 §4 "Listing filters"):
// - search: any criteria change → a new search from offset 0 (takeLatest: a newer change
//   cancels the older request), then the URL is kept in sync with history.replaceState (the
//   browser context writes it after the next paint: address.ts);
// - paging: scrolled to the bottom → the next page, appended (takeLeading: one at a time);
// - nearby: 'Nearby' asks for geolocation; the answer (or the denial) is a criteria change;
// - category: a new category (or, on a neighbourhood hub, a new neighbourhood) is another page;
// - suggest: typing in the keyword field asks for places once typing pauses (debounce);
// - printed: the map view opened on the cards the page printed asks for them as data (the
//   page's state names them by id only), while the map engine loads.

function* context() {
  const c: ListingSearchContext = {
    api: (yield getContext('api')) as ListingSearchContext['api'],
    navigate: (yield getContext('navigate')) as ListingSearchContext['navigate'],
    replaceUrl: (yield getContext('replaceUrl')) as ListingSearchContext['replaceUrl'],
    currentPath: (yield getContext('currentPath')) as ListingSearchContext['currentPath'],
    locate: (yield getContext('locate')) as ListingSearchContext['locate'],
  };
  return c;
}

const selectState = (s: ListingSearchState) => s;

function* syncUrl() {
  const c: ListingSearchContext = yield* context();
  const s: ListingSearchState = yield select(selectState);
  const url = criteriaPageUrl(s.filters.criteria, { path: c.currentPath(), fixedNeighbourhood: s.filters.fixedNeighbourhood, page: currentPage(s.results) });
  c.replaceUrl(url);
}

/** A criteria change: search again from the first page. */
export function* searchFlow() {
  const c: ListingSearchContext = yield* context();
  yield put(results.searchStarted());
  const s: ListingSearchState = yield select(selectState);
  const generation = s.results.generation;
  try {
    const page: Page<ListingDTO> = yield call(c.api.search, criteriaApiQuery(s.filters.criteria, s.filters.fixedNeighbourhood, 0, HUB_PAGE_SIZE));
    yield put(results.pageLoaded({ generation, offset: 0, append: false, page }));
  } catch {
    yield put(results.pageFailed({ generation, append: false }));
  }
  yield call(syncUrl);
}

/** Scrolled to the bottom: the next page, appended, in the large bundle (spec 2 §9). */
export function* nextPageFlow() {
  const c: ListingSearchContext = yield* context();
  const s: ListingSearchState = yield select(selectState);
  const offset = nextPageOffset(s.results);
  if (offset === null || s.results.isFetching || s.filters.locating) return;
  const generation = s.results.generation;
  yield put(results.pageStarted());
  try {
    const page: Page<ListingDTO> = yield call(c.api.search, criteriaApiQuery(s.filters.criteria, s.filters.fixedNeighbourhood, offset, HUB_PAGE_SIZE, 'large'));
    yield put(results.pageLoaded({ generation, offset, append: true, page }));
  } catch {
    yield put(results.pageFailed({ generation, append: true }));
  }
  yield call(syncUrl);
}

/** The map view on the printed cards: the same page again, in the medium bundle, as data. */
export function* printedFlow() {
  const c: ListingSearchContext = yield* context();
  const s: ListingSearchState = yield select(selectState);
  const { printed, startOffset, generation } = s.results;
  if (!printed.length) return;
  try {
    const page: Page<ListingDTO> = yield call(c.api.search, criteriaApiQuery(s.filters.criteria, s.filters.fixedNeighbourhood, startOffset, printed.length));
    yield put(results.printedLoaded({ generation, page }));
  } catch {
    yield put(results.printedFailed({ generation }));
  }
}

const printedWanted = (action: Action) => (filters.viewChosen.match(action) && action.payload === 'map') || results.printedWanted.match(action);

export function* nearbyFlow(action: ReturnType<typeof filters.neighbourhoodChosen>) {
  if (action.payload !== NEARBY_ID) return;
  const c: ListingSearchContext = yield* context();
  try {
    const point: { lat: number; long: number } = yield call(c.locate);
    yield put(filters.nearbyLocated(point));
  } catch {
    yield put(filters.nearbyDenied());
  }
}

export function* categoryFlow(action: ReturnType<typeof filters.categoryChosen>) {
  const c: ListingSearchContext = yield* context();
  const s: ListingSearchState = yield select(selectState);
  const fixed = s.filters.fixedNeighbourhood;
  // A neighbourhood hub stays in its neighbourhood: /{type}/n/{id}/{slug}/ with the new type.
  const path = fixed !== null ? c.currentPath().replace(/^\/[^/]+\//, `/${action.payload.slug}/`) : c.currentPath();
  c.navigate(criteriaPageUrl(s.filters.criteria, { path, fixedNeighbourhood: fixed, page: 1 }));
}

export function* neighbourhoodHubFlow(action: ReturnType<typeof neighbourhoodHubChosen>) {
  const c: ListingSearchContext = yield* context();
  const s: ListingSearchState = yield select(selectState);
  const type = s.filters.criteria.category;
  c.navigate(action.payload ? `/${type}/n/${action.payload.id}/${action.payload.slug}/` : `/${type}/`);
}

export function* suggestFlow(action: ReturnType<typeof suggestions.textTyped>) {
  const text = action.payload;
  if (text.trim().length < SUGGEST_MIN_CHARS) return;
  const c: ListingSearchContext = yield* context();
  try {
    const items: SuggestedPlace[] = yield call(c.api.suggest, text);
    yield put(suggestions.loaded({ text, items }));
  } catch {
    yield put(suggestions.failed({ text }));
  }
}

/** A search-starting action: every criteria change except choosing Nearby (that waits for a position). */
export function isCriteriaChange(action: Action): boolean {
  if (filters.neighbourhoodChosen.match(action)) return action.payload !== NEARBY_ID;
  return CRITERIA_ACTIONS.some((a) => a.match(action));
}

export function* listingSearchSaga() {
  yield all([
    takeLatest(isCriteriaChange, searchFlow),
    takeLeading(results.nextPageRequested.type, nextPageFlow),
    takeLeading(printedWanted, printedFlow),
    takeLatest(filters.neighbourhoodChosen.type, nearbyFlow),
    takeLatest(filters.categoryChosen.type, categoryFlow),
    takeLatest(neighbourhoodHubChosen.type, neighbourhoodHubFlow),
    debounce(SUGGEST_DEBOUNCE_MS, suggestions.textTyped.type, suggestFlow),
  ]);
}
