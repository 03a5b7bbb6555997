import { SAVE_KINDS } from '../../../shared/save-kinds';
import { sizedImageUrl } from '../../../shared/format/image-url';
import { useDashboardSettings } from '../context';
import { countLabel, formatDate } from '../format';
import { useDashboardDispatch, useDashboardSelector } from '../hooks';
import { profileActions } from '../slices/profile';
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
import { DeleteButton, EmptyState, ListingCard, LoadMore, RatingEditor, SortTabs, useFirstPage, type SortTab } from './shared';

// The list screens of spec 1 §2. Where the spec draws a map (favourites, to-dos) the list is
// shown without one.

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
                {b.article.image_url ? <img className="dash-card__img" src={b.article.image_url} alt="" loading="lazy" /> : <div className="dash-card__img dash-card__img--blank" />}
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
                {b.video.image_url ? <img className="dash-card__img" src={b.video.image_url} alt="" loading="lazy" /> : <div className="dash-card__img dash-card__img--blank" />}
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
  const { calendarEnabled } = useDashboardSettings();
  useFirstPage(list, eventBookmarksSlice.actions.pageRequested);
  return (
    <div>
      <h1 className="dash-title">Events</h1>
      {calendarEnabled && <CalendarSettings />}
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

function CalendarSettings() {
  const dispatch = useDashboardDispatch();
  const choice = useDashboardSelector((s) => s.profile.data?.sync_bookmarked_events_to_google_calendar ?? null);
  const saving = useDashboardSelector((s) => s.profile.calendarStatus === 'saving');
  return (
    <fieldset className="dash-panel dash-calendar" disabled={saving}>
      <legend className="dash-subtitle">Calendar Settings</legend>
      <p>Automatically add saved events to your Google Calendar</p>
      <label>
        <input type="radio" name="dash-calendar" checked={choice === true} onChange={() => dispatch(profileActions.calendarChoiceRequested(true))} /> Yes
      </label>{' '}
      <label>
        <input type="radio" name="dash-calendar" checked={choice === false} onChange={() => dispatch(profileActions.calendarChoiceRequested(false))} /> No
      </label>
    </fieldset>
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
                  <img src={sizedImageUrl(p.prism_image_url, 'squareSmall')} alt={p.description || p.title || (p.listing ? `Your photo of ${p.listing.name}` : 'Your photo')} width={340} height={340} loading="lazy" />
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
