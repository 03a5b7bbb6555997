import { useEffect, useRef, useState, type FormEvent, type MouseEvent } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import { dayLabel, isDay, shiftDay } from '../../../shared/events-hub';
import { hub, hubUrl, nextOffset, splitFeatured } from '../slices/hub';
import type { EventsHubRootState } from '../store';
import { EventCard } from './EventCard';

// The hub: heading and count, the day choice (links that load in place: a plain click never
// reloads, a middle click still opens the day in a new tab), the featured grid, the list and
// load-more. While a day loads the old list stays, marked busy.

function plural(n: number, word: string) {
  return `${n} ${n === 1 ? word : `${word}s`}`;
}

function DayForm({ initial, onPick }: { initial: string; onPick: (date: string) => void }) {
  const [picked, setPicked] = useState(initial);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (isDay(picked)) onPick(picked);
  };
  return (
    <form className="inline-form day-nav__form" action="/events/" method="get" onSubmit={submit}>
      <div className="field">
        <label htmlFor="events-date">Pick a date</label>
        <input id="events-date" name="date" type="date" value={picked} required onChange={(e) => setPicked(e.target.value)} />
      </div>
      <button type="submit">Show events</button>
    </form>
  );
}

export function EventsHub({ cityName, timeZone }: { cityName: string; timeZone: string }) {
  const s = useSelector((r: EventsHubRootState) => r.hub);
  const dispatch = useDispatch();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const firstLoad = useRef(true);
  const loadMoreRef = useRef<HTMLButtonElement>(null);
  const { featured, rest } = splitFeatured(s);
  const more = nextOffset(s) !== null;
  const busy = s.status === 'loading';

  // A new day is a new page for the reader: focus its heading once it has loaded.
  useEffect(() => {
    if (firstLoad.current) {
      firstLoad.current = false;
      return;
    }
    if (s.status === 'idle') headingRef.current?.focus();
  }, [s.date, s.status]);

  const choose = (date: string | null) => (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    dispatch(hub.dateChosen(date));
  };
  const dayLink = (date: string | null, text: string, rel?: string) => (
    <li>
      <a className="button button--secondary" href={hubUrl(date)} rel={rel} aria-current={date === s.date ? 'page' : undefined} onClick={choose(date)}>
        {text}
      </a>
    </li>
  );

  const title = s.date ? `Events on ${dayLabel(s.date)}` : `Events in ${cityName}`;
  const lede = s.date ? `${plural(s.count, 'event')} on this day.` : `What's on: ${s.count} upcoming ${s.count === 1 ? 'event' : 'events'}.`;
  return (
    <div className="events-hub" aria-busy={busy}>
      <header className="page-header">
        <h1 className="page-header__title" ref={headingRef} tabIndex={-1}>
          {title}
        </h1>
        <p className="page-header__lede">
          <span role="status">{busy ? 'Loading events…' : lede}</span> {s.canAdd && <a href="/events/add/">Add an event</a>}
        </p>
      </header>
      <nav className="day-nav" aria-label="Days">
        <ul className="day-nav__list">
          {s.date ? (
            <>
              {dayLink(shiftDay(s.date, -1), '← Previous day', 'prev')}
              {dayLink(null, 'Upcoming')}
              {dayLink(shiftDay(s.date, 1), 'Next day →', 'next')}
            </>
          ) : (
            <>
              {dayLink(s.today, 'Today')}
              {dayLink(shiftDay(s.today, 1), 'Tomorrow')}
            </>
          )}
        </ul>
        {/* Keyed by the day shown: a new day resets the field to it. */}
        <DayForm key={s.date ?? s.today} initial={s.date ?? s.today} onPick={(date) => dispatch(hub.dateChosen(date))} />
      </nav>
      {(s.status === 'failedDay' || s.status === 'failedMore') && (
        <p className="notice notice--error" role="alert">
          Events could not be loaded.{' '}
          <button type="button" className="button--secondary" onClick={() => dispatch(s.status === 'failedMore' ? hub.moreRequested() : hub.dateChosen(s.date, false))}>
            Try again
          </button>
        </p>
      )}
      <div className={busy ? 'events-hub__results events-hub__results--busy' : 'events-hub__results'}>
        {featured.length > 0 && (
          <section className="section" aria-labelledby="events-featured-title">
            <h2 id="events-featured-title" className="section__title">
              Featured
            </h2>
            <ul className="event-grid event-grid--featured">
              {featured.map((e, i) => (
                <EventCard key={e.id} event={e} timeZone={timeZone} eager={i < 2} />
              ))}
            </ul>
          </section>
        )}
        {rest.length > 0 && (
          <section className="section" aria-labelledby="events-title">
            <h2 id="events-title" className="section__title">
              {featured.length ? 'More events' : s.date ? dayLabel(s.date) : 'Upcoming'}
            </h2>
            <ul className="event-grid" data-testid="events-list">
              {rest.map((e) => (
                <EventCard key={e.id} event={e} timeZone={timeZone} />
              ))}
            </ul>
          </section>
        )}
        {s.items.length === 0 && s.status !== 'loading' && (
          <p>
            No events {s.date ? 'on this day' : 'coming up'} yet.{' '}
            {s.date && (
              <a href="/events/" onClick={choose(null)}>
                See what's coming up
              </a>
            )}
          </p>
        )}
        {more && (
          <p className="events-hub__more">
            <button type="button" ref={loadMoreRef} onClick={() => dispatch(hub.moreRequested())} disabled={s.status === 'loadingMore' || busy}>
              {s.status === 'loadingMore' ? 'Loading…' : 'Load more events'}
            </button>
          </p>
        )}
      </div>
    </div>
  );
}
