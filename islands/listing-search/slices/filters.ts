import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { BBox } from '../../common/maps/types';
import { hasPoint, NEARBY_ID, type HubCriteria as Criteria, type HubParams } from '../../../shared/listing-hub';
import type { ViewMode } from '../types';

// The listing filters of spec 2 §4, with their reset rules:
// - a new category resets the sub-category (and the page navigates to the category's hub);
// - a neighbourhood resets the suggestion and the subway stop, and clears coordinates;
// - a subway stop resets the neighbourhood and the suggestion;
// - a suggestion resets both, and its coordinates order by distance; typed keywords (names)
//   and a chosen place share one field, so either one replaces the other;
// - coordinates (Nearby, a subway stop) set ordering to distance; clearing a subway stop or a
//   suggestion sets it back to smart_review; distance never outlives its point;
// - 'Nearby' (-2) waits for geolocation (locating); a denial resets the neighbourhood.
// Filters are disabled while fetching or locating (see selectors).

export interface FiltersState {
  criteria: Criteria;
  fixedNeighbourhood: number | null;
  locating: boolean;
  view: ViewMode;
  /** The dropdowns are unfolded; they start folded (x-small screens fold them, spec 2 §2). */
  filtersOpen: boolean;
}

export function criteriaFromParams(p: HubParams): Criteria {
  return {
    categoryIndex: p.selectedCategoryIndex,
    category: p.category,
    subcategory: p.subcategory,
    neighborhoodId: p.fixedNeighbourhood !== null ? null : p.neighborhoodId,
    subwayStopId: p.subwayStopId,
    keywords: p.keywords ?? null,
    selectedSuggestion: null,
    selectedServiceSlug: p.selectedServiceSlug,
    selectedFeatures: p.selectedFeatures,
    accessibility: p.accessibility ?? [],
    bestOf: p.bestOf,
    openNow: p.openNow ?? false,
    includeClosed: p.includeClosed ?? false,
    ordering: p.ordering,
    lat: null,
    long: null,
    bbox: null,
  };
}

export function initialFilters(p: HubParams): FiltersState {
  return { criteria: criteriaFromParams(p), fixedNeighbourhood: p.fixedNeighbourhood, locating: false, view: 'list', filtersOpen: false };
}

const SMART_REVIEW = 'smart_review';

/** CASE: distance needs a point or a station (the API answers 400 otherwise). */
function keepOrderingValid(c: Criteria): void {
  if (c.ordering === 'distance' && !hasPoint(c) && !c.subwayStopId) c.ordering = SMART_REVIEW;
}

export const filtersSlice = createSlice({
  name: 'filters',
  initialState: initialFilters({
    selectedCategoryIndex: 0, category: '', subcategory: null, neighborhoodId: null, subwayStopId: null,
    selectedServiceSlug: null, selectedFeatures: [], bestOf: false, ordering: 'name', page: 1, fixedNeighbourhood: null,
  }),
  reducers: {
    /** A new category: its hub is another page (the saga navigates); the sub-category resets. */
    categoryChosen(state, action: PayloadAction<{ index: number; slug: string }>) {
      state.criteria.categoryIndex = action.payload.index;
      state.criteria.category = action.payload.slug;
      state.criteria.subcategory = null;
    },
    subCategoryChosen(state, action: PayloadAction<string | null>) {
      state.criteria.subcategory = action.payload;
      state.criteria.bbox = null;
    },
    neighbourhoodChosen(state, action: PayloadAction<number | null>) {
      const c = state.criteria;
      c.neighborhoodId = action.payload;
      c.selectedSuggestion = null;
      c.subwayStopId = null;
      c.lat = null;
      c.long = null;
      c.bbox = null;
      state.locating = action.payload === NEARBY_ID;
      keepOrderingValid(c);
    },
    /** Geolocation answered for 'Nearby' (or a reload restored lat/long from the URL). */
    nearbyLocated(state, action: PayloadAction<{ lat: number; long: number }>) {
      const c = state.criteria;
      c.neighborhoodId = NEARBY_ID;
      c.subwayStopId = null;
      c.selectedSuggestion = null;
      c.lat = action.payload.lat;
      c.long = action.payload.long;
      c.ordering = 'distance';
      state.locating = false;
    },
    /** Geolocation denied or failed: the Nearby choice is reset (spec 2 §8). */
    nearbyDenied(state) {
      state.criteria.neighborhoodId = null;
      state.locating = false;
      keepOrderingValid(state.criteria);
    },
    subwayStopChosen(state, action: PayloadAction<number | null>) {
      const c = state.criteria;
      c.subwayStopId = action.payload;
      c.neighborhoodId = null;
      c.selectedSuggestion = null;
      c.lat = null;
      c.long = null;
      c.bbox = null;
      c.ordering = action.payload ? 'distance' : SMART_REVIEW;
      state.locating = false;
    },
    /** A place from the type-ahead: results around it, nearest first; null clears it. */
    suggestionChosen(state, action: PayloadAction<PlaceSuggestion | null>) {
      const c = state.criteria;
      const place = action.payload;
      c.selectedSuggestion = place?.name ?? null;
      c.neighborhoodId = null;
      c.subwayStopId = null;
      c.keywords = null;
      c.lat = place?.lat ?? null;
      c.long = place?.long ?? null;
      c.bbox = null;
      c.ordering = place ? 'distance' : SMART_REVIEW;
      state.locating = false;
      keepOrderingValid(c);
    },
    /** Words typed in the field and submitted: names containing them; a chosen place goes. */
    keywordsChosen(state, action: PayloadAction<string | null>) {
      const c = state.criteria;
      const words = action.payload?.trim().slice(0, KEYWORDS_MAX) || null;
      c.keywords = words;
      if (c.selectedSuggestion !== null) {
        c.selectedSuggestion = null;
        c.lat = null;
        c.long = null;
        c.ordering = SMART_REVIEW;
      }
      keepOrderingValid(c);
    },
    serviceChosen(state, action: PayloadAction<string | null>) {
      state.criteria.selectedServiceSlug = action.payload;
    },
    featuresChosen(state, action: PayloadAction<string[]>) {
      state.criteria.selectedFeatures = [...new Set(action.payload)];
    },
    /** Accessibility attributes a place must have (shared/accessibility.ts). */
    accessibilityChosen(state, action: PayloadAction<string[]>) {
      state.criteria.accessibility = [...new Set(action.payload)];
    },
    bestOfChosen(state, action: PayloadAction<boolean>) {
      state.criteria.bestOf = action.payload;
    },
    /** Open now: the API leaves out places whose hours are unknown. */
    openNowChosen(state, action: PayloadAction<boolean>) {
      state.criteria.openNow = action.payload;
    },
    /** Closed places too (closed=include), marked "Closed" on their cards. */
    includeClosedChosen(state, action: PayloadAction<boolean>) {
      state.criteria.includeClosed = action.payload;
    },
    orderingChosen(state, action: PayloadAction<string>) {
      state.criteria.ordering = action.payload;
      keepOrderingValid(state.criteria);
    },
    /** 'Refresh results in this area': the map's bounds, once it stopped moving. */
    mapAreaChosen(state, action: PayloadAction<BBox>) {
      state.criteria.bbox = action.payload;
    },
    mapAreaCleared(state) {
      state.criteria.bbox = null;
    },
    viewChosen(state, action: PayloadAction<ViewMode>) {
      state.view = action.payload;
    },
    filtersToggled(state) {
      state.filtersOpen = !state.filtersOpen;
    },
  },
});

export const filters = filtersSlice.actions;

/** A place the type-ahead offers: its name and where it is. */
export interface PlaceSuggestion {
  name: string;
  lat: number;
  long: number;
}

/** How many dropdown choices narrow the search (the folded 'Filters (N)' button says it). */
export function activeFilterCount(c: Criteria): number {
  return [c.subcategory, c.neighborhoodId, c.subwayStopId, c.selectedServiceSlug, c.bestOf || null, c.openNow || null, c.includeClosed || null].filter((v) => v !== null).length + c.selectedFeatures.length + (c.accessibility?.length ?? 0);
}

/** The API's keywords limit (server/apps/listings/search-params.ts). */
export const KEYWORDS_MAX = 100;

/** The actions that change what is searched: each starts a new search (takeLatest). */
export const CRITERIA_ACTIONS = [
  filters.subCategoryChosen,
  filters.neighbourhoodChosen,
  filters.nearbyLocated,
  filters.nearbyDenied,
  filters.subwayStopChosen,
  filters.suggestionChosen,
  filters.keywordsChosen,
  filters.serviceChosen,
  filters.featuresChosen,
  filters.accessibilityChosen,
  filters.bestOfChosen,
  filters.openNowChosen,
  filters.includeClosedChosen,
  filters.orderingChosen,
  filters.mapAreaChosen,
  filters.mapAreaCleared,
] as const;
