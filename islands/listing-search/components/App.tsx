import { useCallback, useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import { filters } from '../slices/filters';
import { loadedCount, nextPageOffset, results } from '../slices/results';
import type { ListingSearchState } from '../store';
import { criteriaPageUrl, hubSortTabs, type HubOptions } from '../../../shared/listing-hub';
import { Filters } from './Filters';
import { ListingCard, type CardContext } from './ListingCard';
import { MapPanel } from './MapPanel';
import { loadMapEngine } from '../../common/maps/loader';
import { ResultSlider } from './ResultSlider';
import type { LatLng } from '../../common/maps/types';
import type { ListingDTO } from '../../../shared/dto';

// The listing search panel (spec 2 §2): filters, sort tabs, a list/map toggle, the results
// with infinite scroll and the messages of spec 2 §8. The cards the hub page printed stay in
// the page as the server made them (printedCards, moved into the list React renders, ahead of
// its own cards): rendering 40 cards again at load was the hub's longest task. A new search
// replaces them with cards the island renders.

export interface AppProps {
  options: HubOptions;
  card: CardContext;
  centre: LatLng;
  path: string;
  geolocation: boolean;
  /** The server's cards of the first page (state.results.printed), taken out of its markup. */
  printedCards?: HTMLElement[];
}

const NONE: HTMLElement[] = [];
const NO_ITEMS: ListingDTO[] = [];

/** Calls `onReach` when the element scrolls into view (with a margin, so the next page is early). */
function useBottomReached(onReach: () => void, deps: unknown[]) {
  const ref = useRef<HTMLDivElement>(null);
  const cb = useRef(onReach);
  useLayoutEffect(() => {
    cb.current = onReach;
  });
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const io = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && cb.current(), { rootMargin: '0px 0px 400px 0px' });
    io.observe(el);
    return () => io.disconnect();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
  return ref;
}

export function App({ options, card, centre, path, geolocation, printedCards = NONE }: AppProps) {
  const dispatch = useDispatch();
  const { criteria, fixedNeighbourhood, locating, view, filtersOpen } = useSelector((s: ListingSearchState) => s.filters);
  const list = useSelector((s: ListingSearchState) => s.results);
  const disabled = list.isFetching || locating;
  const more = nextPageOffset(list) !== null;
  const loaded = loadedCount(list);
  const keepPrinted = list.printed.length > 0;
  // The map needs the printed cards as data (printedFlow); until they come it shows as loading,
  // while the map engine loads beside them.
  const mapWaiting = view === 'map' && keepPrinted && !list.failed;
  useEffect(() => {
    if (mapWaiting) loadMapEngine().catch(() => undefined);
  }, [mapWaiting]);

  // The printed cards lead the list while it shows them; React never renders or reconciles them
  // (its own cards come after them), and a new search takes them out.
  const listRef = useRef<HTMLUListElement>(null);
  useLayoutEffect(() => {
    const ul = listRef.current;
    if (!keepPrinted) printedCards.forEach((li) => li.remove());
    else if (ul && printedCards.length && printedCards[0].parentNode !== ul) ul.prepend(...printedCards);
  }, [keepPrinted, view, printedCards]);

  const type = options.types.find((t) => t.slug === criteria.category);
  const subName = type?.sub_types.find((s) => s.slug === criteria.subcategory)?.name;
  const what = subName ?? type?.name ?? 'places';

  // New cards carry new save placeholders: the saves island mounts them.
  useEffect(() => {
    document.dispatchEvent(new CustomEvent('saves:rescan'));
  }, [list.items, view]);

  // Only the list scrolls on to its next page. Under the map the sentinel stays in view, so
  // observing it there loaded every page of the results one after another (hundreds of
  // requests); the map's slider and the Show more button ask for pages there.
  const sentinel = useBottomReached(() => {
    if (view === 'list' && more && !list.isFetching) dispatch(results.nextPageRequested());
  }, [loaded, view, more]);

  const moreFromSlider = useCallback(() => {
    if (more && !list.isFetching) dispatch(results.nextPageRequested());
  }, [more, list.isFetching, dispatch]);

  const tabs = useMemo(() => hubSortTabs(criteria.subcategory), [criteria.subcategory]);

  return (
    <div className="listing-search" data-enhanced="true">
      <Filters criteria={criteria} options={options} fixedNeighbourhood={fixedNeighbourhood} disabled={disabled} geolocation={geolocation} cityName={card.cityName} open={filtersOpen} />

      <div className="listing-search__bar">
        <nav className="tabs" aria-label="Sort by">
          <ul className="tabs__list">
            {tabs.map((t) => (
              <li key={t.label}>
                <a
                  className="tabs__link"
                  href={criteriaPageUrl({ ...criteria, ordering: t.ordering }, { path, fixedNeighbourhood, page: 1 })}
                  aria-current={t.ordering === criteria.ordering ? 'true' : undefined}
                  aria-disabled={disabled || undefined}
                  onClick={(e) => {
                    e.preventDefault();
                    if (!disabled && t.ordering !== criteria.ordering) dispatch(filters.orderingChosen(t.ordering));
                  }}
                >
                  {t.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="view-toggle" role="group" aria-label="Show results as">
          <button type="button" className="view-toggle__button" aria-pressed={view === 'list'} onClick={() => dispatch(filters.viewChosen('list'))}>
            List
          </button>
          <button type="button" className="view-toggle__button" aria-pressed={view === 'map'} onClick={() => dispatch(filters.viewChosen('map'))}>
            Map
          </button>
        </div>
      </div>

      <section className="hub-results" aria-labelledby="results-title" aria-busy={disabled || mapWaiting}>
        <h2 id="results-title" className="hub-results__count" aria-live="polite">
          {locating ? 'Finding your location…' : `${list.count} found`}
        </h2>
        {list.failed && list.count === 0 && <p className="notice notice--error">The results could not be loaded. Please try again.</p>}
        {!list.failed && list.count === 0 && !list.isFetching && (
          <p className="notice">Sorry, there are no results for {what} in this area. Please try adjusting your search criteria with dropdowns above.</p>
        )}
        {view === 'map' && keepPrinted && list.failed && <p className="notice notice--error">The results could not be loaded. Please try again.</p>}
        {view === 'map' && mapWaiting ? (
          <div className="listing-search__map-panel">
            <div className="listing-search__map map-canvas" data-map-status="loading" aria-busy="true" />
          </div>
        ) : view === 'map' ? (
          <>
          <MapPanel
            items={keepPrinted ? NO_ITEMS : list.items}
            siteUrl={card.siteUrl}
            cityName={card.cityName}
            centre={centre}
            refit={!criteria.bbox}
            areaChosen={Boolean(criteria.bbox)}
            disabled={disabled}
            onRefresh={(bbox) => dispatch(filters.mapAreaChosen(bbox))}
            onClearArea={() => dispatch(filters.mapAreaCleared())}
          />
          <ResultSlider key={list.generation} items={keepPrinted ? NO_ITEMS : list.items} count={list.count} siteUrl={card.siteUrl} cityName={card.cityName} onNearEnd={moreFromSlider} />
          </>
        ) : (
          loaded > 0 && (
            <ul ref={listRef} className={`place-grid place-grid--list${list.isFetching ? ' is-fetching' : ''}`}>
              {list.items.map((l) => (
                <ListingCard key={l.id} l={l} ctx={card} />
              ))}
            </ul>
          )
        )}
        {list.count > 0 && list.count < 5 && <p className="notice">Want more results? Try adjusting your criteria with the dropdowns above.</p>}
        {more && (
          <div ref={sentinel} className="listing-search__more">
            <button type="button" className="button--secondary" disabled={list.isFetching} onClick={() => dispatch(results.nextPageRequested())}>
              {list.isFetching ? 'Loading…' : `Show more (${loaded + list.startOffset} of ${list.count})`}
            </button>
          </div>
        )}
      </section>
    </div>
  );
}
