import { lazy, Suspense, useState, type ComponentProps } from 'react';
import { SAVE_KINDS } from '../../../shared/save-kinds';
import { favouritesMapActions } from '../slices/maps';
import { CalendarSettings } from './CalendarSettings';
// The map code (islands/common/maps helpers, then maplibre itself) loads only when a map is shown,
// keeping the dashboard's first load within the JS budget.
const LazyListingsMap = lazy(() => import('./ListingsMap').then((m) => ({ default: m.ListingsMap })));
function ListingsMap(props: ComponentProps<typeof LazyListingsMap>) {
  return (
    <Suspense fallback={<div className="dash-map" data-map-status="loading" />}>
      <LazyListingsMap {...props} />
    </Suspense>
  );
}
import { pictureUrl } from '../../common/picture-url';
import { countLabel, formatDate } from '../format';
import { useDashboardDispatch, useDashboardSelector } from '../hooks';
import {
  articleBookmarksSlice,
  completedTodosSlice,
  eventBookmarksSlice,
  favouritesSlice,
  photosSlice,
  ratingChangeRequested,
  ratingsSlice,
  todoCompletionRequested,
  todoRatingRequested,
  todosSlice,
  videoBookmarksSlice,
} from '../slices/lists';
import { CardImage, DeleteButton, EmptyState, ListingCard, LoadMore, RatingEditor, SortTabs, useFirstPage, type SortTab } from './shared';
import { placeholderImageUrl } from '../../../shared/format/placeholder-image';

// The list screens of spec 1 §2. Favourites have 'Map all Favourites'; open to-dos are shown
// on a map above their grid (the site's map component, loaded lazily).

const loaded = (count: number) => count > -1;

export function Favourites() {
  const dispatch = useDashboardDispatch();
  const list = useDashboardSelector((s) => s.favourites);
  useFirstPage(list, favouritesSlice.actions.pageRequested);
  return (
    <div>
      <h1 className="dash-title">Favourites</h1>
      {loaded(list.count) && list.count === 0 && <EmptyState>Heart the places you love and they will be kept here.</EmptyState>}
      {list.count > 0 && (
        <>
          <h2 className="dash-subtitle">{countLabel(list.count, 'Favourite')}</h2>
          <FavouritesMap />
          <ul className="dash-grid">
            {list.items.map((f) => (
              <ListingCard key={f.id} listing={f.listing}>
                <DeleteButton what="favourite" label={f.listing.name} onConfirm={() => dispatch(favouritesSlice.actions.deleteRequested(f.id))} />
              </ListingCard>
            ))}
          </ul>
          <LoadMore list={list} pageRequested={favouritesSlice.actions.pageRequested} />
        </>
      )}
    </div>
  );
}

/** 'Map all Favourites': every favourite (not only the loaded page) on the map. */
function FavouritesMap() {
  const dispatch = useDashboardDispatch();
  const [open, setOpen] = useState(false);
  const map = useDashboardSelector((s) => s.favouritesMap);
  const toggle = () => {
    if (!open && map.status !== 'loading') dispatch(favouritesMapActions.requested());
    setOpen(!open);
  };
  return (
    <div className="dash-map-section">
      <button type="button" className="button button--secondary dash-map-toggle" aria-expanded={open} aria-controls="dash-favourites-map" onClick={toggle}>
        {open ? 'Hide the map' : 'Map all Favourites'}
      </button>
      {open && (
        <div id="dash-favourites-map" className="dash-panel dash-map-panel">
          {map.status === 'loaded' && (
            <>
              <h2 className="dash-subtitle dash-map-title">{countLabel(map.count, 'Favourite')}</h2>
              <ListingsMap listings={map.items.map((f) => f.listing)} label="Map of your favourites" />
            </>
          )}
          {map.status === 'loading' && <p className="dash-placeholder">Loading the map…</p>}
          {map.status === 'failed' && <p className="dash-muted">The map could not be loaded. Please try again later.</p>}
        </div>
      )}
    </div>
  );
}

export const TODOS_EMPTY = "Build a To-Do List of all the places you've been meaning to check out.";

export function Todos() {
  const dispatch = useDashboardDispatch();
  const open = useDashboardSelector((s) => s.todos);
  const done = useDashboardSelector((s) => s.completedTodos);
  useFirstPage(open, todosSlice.actions.pageRequested);
  useFirstPage(done, completedTodosSlice.actions.pageRequested);
  const empty = open.count === 0 && done.count === 0;
  return (
    <div>
      <h1 className="dash-title">To-Do List</h1>
      {empty && <EmptyState appLink>{TODOS_EMPTY}</EmptyState>}
      {open.count > 0 && (
        <>
          <h2 className="dash-subtitle">{countLabel(open.count, 'To-Do')}</h2>
          <ListingsMap listings={open.items.map((t) => t.listing)} label="Map of your to-dos" />
          <ul className="dash-grid">
            {open.items.map((t) => (
              <ListingCard key={t.id} listing={t.listing}>
                <label className="dash-check">
                  <input type="checkbox" checked={false} onChange={() => dispatch(todoCompletionRequested(t.id))} /> Mark as completed
                </label>
                <DeleteButton what="to-do" label={t.listing.name} onConfirm={() => dispatch(todosSlice.actions.deleteRequested(t.id))} />
              </ListingCard>
            ))}
          </ul>
          <LoadMore list={open} pageRequested={todosSlice.actions.pageRequested} />
        </>
      )}
      {done.count > 0 && (
        <section className="dash-completed" aria-labelledby="dash-completed-title">
          <h2 id="dash-completed-title" className="dash-subtitle">
            {done.count} Completed {done.count === 1 ? 'To-Do' : 'To-Dos'}
          </h2>
          <p>Rate them:</p>
          <ul className="dash-grid">
            {done.items.map((t) => (
              <ListingCard key={t.id} listing={t.listing}>
                <RatingEditor value={t.listing.user_rating?.rating ?? 0} label={`Your rating of ${t.listing.name}`} onConfirm={(rating) => dispatch(todoRatingRequested({ todoId: t.id, rating }))} />
                <DeleteButton what="to-do" label={t.listing.name} onConfirm={() => dispatch(completedTodosSlice.actions.deleteRequested(t.id))} />
              </ListingCard>
            ))}
          </ul>
          <LoadMore list={done} pageRequested={completedTodosSlice.actions.pageRequested} />
        </section>
      )}
    </div>
  );
}

export const ARTICLE_TABS: readonly SortTab[] = SAVE_KINDS.articleBookmarks.sortTabs;

export function SavedArticles() {
  const dispatch = useDashboardDispatch();
  const list = useDashboardSelector((s) => s.articleBookmarks);
  useFirstPage(list, articleBookmarksSlice.actions.pageRequested);
  return (
    <div>
      <h1 className="dash-title">Saved Articles</h1>
      {list.count === 0 && <EmptyState appLink>Find something interesting? Save it for later.</EmptyState>}
      {list.count > 0 && (
        <>
          <h2 className="dash-subtitle">{countLabel(list.count, 'Saved Article')}</h2>
          <SortTabs tabs={ARTICLE_TABS} current={list.params.ordering} onChange={(ordering) => dispatch(articleBookmarksSlice.actions.pageRequested({ ordering }))} />
          <ul className="dash-grid">
            {list.items.map((b) => (
              <li key={b.id} className="dash-card">
                <CardImage src={b.article.image_url} placeholder={placeholderImageUrl('article')} />
                <div className="dash-card__body">
                  <p className="dash-card__kicker">{b.article.type.name}</p>
                  <h3 className="dash-card__title">
                    <a href={b.article.is_slideshow && b.article.slideshow_url ? b.article.slideshow_url : b.article.share_url}>{b.article.name}</a>
                  </h3>
                  <p className="dash-card__meta">{formatDate(b.article.date_published)}</p>
                  <DeleteButton what="article" label={b.article.name} onConfirm={() => dispatch(articleBookmarksSlice.actions.deleteRequested(b.id))} />
                </div>
              </li>
            ))}
          </ul>
          <LoadMore list={list} pageRequested={articleBookmarksSlice.actions.pageRequested} />
        </>
      )}
    </div>
  );
}

export const VIDEO_TABS: readonly SortTab[] = SAVE_KINDS.videoBookmarks.sortTabs;

export function SavedVideos() {
  const dispatch = useDashboardDispatch();
  const list = useDashboardSelector((s) => s.videoBookmarks);
  useFirstPage(list, videoBookmarksSlice.actions.pageRequested);
  return (
    <div>
      <h1 className="dash-title">Saved Videos</h1>
      {list.count === 0 && <EmptyState>Watch something good? Save the video for later.</EmptyState>}
      {list.count > 0 && (
        <>
          <h2 className="dash-subtitle">{countLabel(list.count, 'Saved Video')}</h2>
          <SortTabs tabs={VIDEO_TABS} current={list.params.ordering} onChange={(ordering) => dispatch(videoBookmarksSlice.actions.pageRequested({ ordering }))} />
          <ul className="dash-grid">
            {list.items.map((b) => (
              <li key={b.id} className="dash-card">
                <CardImage src={b.video.image_url} placeholder={placeholderImageUrl('video')} />
                <div className="dash-card__body">
                  {b.video.category && <p className="dash-card__kicker">{b.video.category.name}</p>}
                  <h3 className="dash-card__title">
                    <a href={b.video.share_url}>{b.video.title}</a>
                  </h3>
                  <p className="dash-card__meta">{formatDate(b.video.date_published)}</p>
                  <DeleteButton what="video" label={b.video.title} onConfirm={() => dispatch(videoBookmarksSlice.actions.deleteRequested(b.id))} />
                </div>
              </li>
            ))}
          </ul>
          <LoadMore list={list} pageRequested={videoBookmarksSlice.actions.pageRequested} />
        </>
      )}
    </div>
  );
}

export const EVENT_TABS: readonly SortTab[] = SAVE_KINDS.eventBookmarks.sortTabs;

export function SavedEvents() {
  const dispatch = useDashboardDispatch();
  const list = useDashboardSelector((s) => s.eventBookmarks);
  useFirstPage(list, eventBookmarksSlice.actions.pageRequested);
  return (
    <div>
      <h1 className="dash-title">Events</h1>
      <CalendarSettings />
      {list.count === 0 && <EmptyState>Save the events you don't want to miss and find them here.</EmptyState>}
      {list.count > 0 && (
        <>
          <h2 className="dash-subtitle">{countLabel(list.count, 'Saved Event')}</h2>
          <SortTabs tabs={EVENT_TABS} current={list.params.ordering} onChange={(ordering) => dispatch(eventBookmarksSlice.actions.pageRequested({ ordering }))} />
          <ul className="dash-rows">
            {list.items.map((b) => (
              <li key={b.id} className="dash-row">
                <div>
                  <h3 className="dash-card__title">
                    <a href={b.event.share_url}>{b.event.title || b.event.name}</a>
                  </h3>
                  <p className="dash-card__meta">
                    {formatDate(b.event.start_date_time)}
                    {b.event.venue_name ? ` · ${b.event.venue_name}` : ''}
                  </p>
                </div>
                <DeleteButton what="event" label={b.event.title || b.event.name} onConfirm={() => dispatch(eventBookmarksSlice.actions.deleteRequested(b.id))} />
              </li>
            ))}
          </ul>
          <LoadMore list={list} pageRequested={eventBookmarksSlice.actions.pageRequested} />
        </>
      )}
    </div>
  );
}

export function RatedPlaces() {
  const dispatch = useDashboardDispatch();
  const list = useDashboardSelector((s) => s.ratings);
  useFirstPage(list, ratingsSlice.actions.pageRequested);
  return (
    <div>
      <h1 className="dash-title">Rated Places</h1>
      {list.count === 0 && <EmptyState>Rate the places you've been to and keep track of them here.</EmptyState>}
      {list.count > 0 && (
        <>
          <h2 className="dash-subtitle">{countLabel(list.count, 'Rated Place')}</h2>
          <ul className="dash-grid">
            {list.items.map((r) => (
              <ListingCard key={r.id} listing={r.listing}>
                <RatingEditor value={r.rating} label={`Your rating of ${r.listing.name}`} onConfirm={(rating) => dispatch(ratingChangeRequested({ id: r.id, rating }))} />
              </ListingCard>
            ))}
          </ul>
          <LoadMore list={list} pageRequested={ratingsSlice.actions.pageRequested} />
        </>
      )}
    </div>
  );
}

export function Photos() {
  const dispatch = useDashboardDispatch();
  const list = useDashboardSelector((s) => s.photos);
  useFirstPage(list, photosSlice.actions.pageRequested);
  return (
    <div>
      <h1 className="dash-title">{list.count > 0 ? countLabel(list.count, 'Photo') : 'Photos'}</h1>
      {list.count === 0 && <EmptyState>Share your photos of the places you visit and they will show up here.</EmptyState>}
      {list.count > 0 && (
        <>
          <ul className="dash-photos">
            {list.items.map((p) => (
              <li key={p.id} className="dash-photo">
                {/* The 340 square the photo grids use (made at upload), not the stored original */}
                <a href={p.share_url}>
                  <img src={pictureUrl(p.prism_image_url, 'squareSmall')} alt={p.description || p.title || (p.listing ? `Your photo of ${p.listing.name}` : 'Your photo')} width={340} height={340} loading="lazy" />
                </a>
                {p.listing && (
                  <p className="dash-card__meta dash-photo__listing">
                    <a href={p.listing.share_url}>{p.listing.name}</a>
                  </p>
                )}
                <DeleteButton what="photo" label={p.listing ? `your photo of ${p.listing.name}` : 'this photo'} onConfirm={() => dispatch(photosSlice.actions.deleteRequested(p.id))} />
              </li>
            ))}
          </ul>
          <LoadMore list={list} pageRequested={photosSlice.actions.pageRequested} />
        </>
      )}
    </div>
  );
}
