import { useEffect, useState } from 'react';
import { useDashboardDispatch, useDashboardSelector } from '../hooks';
import { calendarActions } from '../slices/calendar';
import { profileActions } from '../slices/profile';

// Calendar Settings on the events view (spec 1 §2; issue 13): the Yes/No sync choice with
// 'Automatically add saved events to your Google Calendar', whether Google is connected (and
// the link to connect it), and the private ICS link any calendar app can subscribe to. The
// choice always shows; when the server has no Google client a note says so, and a development
// server says how to set one up.

export function CalendarSettings() {
  const dispatch = useDashboardDispatch();
  const { status, data, feedStatus } = useDashboardSelector((s) => s.calendar);
  const choice = useDashboardSelector((s) => s.profile.data?.sync_bookmarked_events_to_google_calendar ?? null);
  const saving = useDashboardSelector((s) => s.profile.calendarStatus === 'saving');
  // The answer being saved shows at once; a refused save falls back to the stored choice.
  const [asked, setAsked] = useState<boolean | null>(null);
  const shown = saving && asked !== null ? asked : choice;
  const choose = (value: boolean) => {
    setAsked(value);
    dispatch(profileActions.calendarChoiceRequested(value));
  };
  useEffect(() => {
    if (status === 'idle') dispatch(calendarActions.statusRequested());
  }, [status, dispatch]);

  const google = data?.google;
  return (
    <section className="dash-panel dash-calendar" aria-labelledby="dash-calendar-title" aria-busy={status === 'loading' || undefined}>
      <h2 id="dash-calendar-title" className="dash-subtitle">
        Calendar Settings
      </h2>
      {status === 'failed' && <p className="dash-muted">Your calendar settings could not be loaded. Please try again later.</p>}
      {/* The choice is the member's profile field, kept whether or not this site can reach
          Google yet (spec 1 §2), for when a Google client is configured. */}
      <fieldset className="dash-calendar__choice" disabled={saving} aria-describedby={google && !google.configured ? 'dash-calendar-off' : undefined}>
        <legend>Automatically add saved events to your Google Calendar</legend>
        <label>
          <input type="radio" name="dash-calendar" checked={shown === true} onChange={() => choose(true)} /> Yes
        </label>{' '}
        <label>
          <input type="radio" name="dash-calendar" checked={shown === false} onChange={() => choose(false)} /> No
        </label>
      </fieldset>
      {google && !google.configured && (
        <div className="dash-calendar__off">
          <p id="dash-calendar-off" className="dash-muted">
            Google Calendar is not set up on this site yet. Your choice is kept for when it is.
          </p>
          {google.setup_hint && (
            <p className="dash-calendar__hint" data-testid="calendar-setup-hint">
              {google.setup_hint}
            </p>
          )}
        </div>
      )}
      {google?.configured && (
        <p className="dash-calendar__state" data-connected={google.connected}>
          {google.connected ? (
            <>
              <span className="dash-calendar__dot is-on" aria-hidden="true" /> Connected to Google Calendar.
            </>
          ) : (
            <>
              <span className="dash-calendar__dot" aria-hidden="true" /> Not connected to Google Calendar.{' '}
              {google.connect_url && <a href={google.connect_url}>Connect Google Calendar</a>}
            </>
          )}
        </p>
      )}
      {data && (
        <div className="dash-calendar__feed">
          <h3 className="dash-calendar__feed-title">Private calendar link</h3>
          <p className="dash-muted">Subscribe to your saved events from any calendar app (Apple Calendar, Outlook, Google). Keep the link to yourself: anyone with it can see your saved events.</p>
          {data.feed.url ? (
            <>
              <label htmlFor="dash-ics-url">Your link</label>
              <input id="dash-ics-url" className="dash-calendar__url" readOnly value={data.feed.url} onFocus={(e) => e.currentTarget.select()} />
              <p className="dash-calendar__links">
                {data.feed.webcal_url && <a href={data.feed.webcal_url}>Open in your calendar app</a>}{' '}
                <button type="button" className="button--quiet dash-link" disabled={feedStatus === 'saving'} onClick={() => dispatch(calendarActions.feedRequested())}>
                  Make a new link
                </button>
              </p>
            </>
          ) : (
            <button type="button" className="button button--secondary" disabled={feedStatus === 'saving'} onClick={() => dispatch(calendarActions.feedRequested())}>
              Get my calendar link
            </button>
          )}
          {feedStatus === 'failed' && (
            <p className="dash-muted" role="alert">
              The link could not be made. Please try again.
            </p>
          )}
        </div>
      )}
    </section>
  );
}
