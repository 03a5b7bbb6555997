import { useEffect, useState, type FormEvent } from 'react';
import { api, fieldErrorsOf } from '../../common/api';
import { FieldError } from '../../common/FieldError';
import type { CalendarFeedDTO, Page } from '../../../shared/dto';
import { countLabel } from '../format';

// My calendar feeds (issue 28): an organiser adds the iCalendar address of their venue's or
// group's calendar; the site fetches it every hour and sends each event to the editors' queue.
// The list says how each feed's last fetch went, with "Check now" and "Remove". Loaded when
// opened, like Your Data, so it costs the dashboard's first load nothing.

const FEEDS = '/api/v2/calendar-feeds/';

function when(iso: string | null): string {
  if (!iso) return 'never';
  return new Date(iso).toLocaleString('en-CA', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'America/Toronto' });
}

function FeedItem({ feed, onChange, onRemove }: { feed: CalendarFeedDTO; onChange: (f: CalendarFeedDTO) => void; onRemove: (id: number) => void }) {
  const [busy, setBusy] = useState<'check' | 'remove' | null>(null);
  const [error, setError] = useState<string | undefined>();
  const act = async (what: 'check' | 'remove') => {
    setBusy(what);
    setError(undefined);
    try {
      if (what === 'check') onChange(await api.post<CalendarFeedDTO>(`${FEEDS}${feed.id}/check/`));
      else {
        await api.delete(`${FEEDS}${feed.id}/`);
        onRemove(feed.id);
      }
    } catch (err) {
      setError(fieldErrorsOf(err, []).non_field_errors);
    } finally {
      setBusy(null);
    }
  };
  const status = feed.status === 'paused' ? 'Paused' : feed.last_error ? 'Last fetch failed' : feed.last_success_at ? 'Working' : 'Waiting for its first fetch';
  return (
    <li className="dash-feed" data-feed-id={feed.id}>
      <p className="dash-feed__url">{feed.url}</p>
      <dl className="dash-feed__facts">
        <dt>Status</dt>
        <dd data-feed-status>{status}</dd>
        <dt>Last fetch</dt>
        <dd>{when(feed.last_fetched_at)}</dd>
        <dt>Events found</dt>
        <dd data-feed-events>{feed.events_found === null ? '—' : countLabel(feed.events_found, 'event')}</dd>
      </dl>
      {feed.status === 'paused' && feed.paused_reason ? <p className="dash-feed__problem" role="status">{feed.paused_reason} Fix the feed, then press Check now to start again.</p> : null}
      {feed.status !== 'paused' && feed.last_error ? <p className="dash-feed__problem">{feed.last_error}</p> : null}
      <p className="dash-actions">
        <button type="button" onClick={() => act('check')} disabled={busy !== null}>
          {busy === 'check' ? 'Checking…' : 'Check now'}
        </button>
        <button type="button" className="button--secondary" onClick={() => act('remove')} disabled={busy !== null}>
          Remove
        </button>
      </p>
      <FieldError message={error} />
    </li>
  );
}

export function CalendarFeeds() {
  const [feeds, setFeeds] = useState<CalendarFeedDTO[] | null>(null);
  const [url, setUrl] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [adding, setAdding] = useState(false);

  useEffect(() => {
    let live = true;
    api.get<Page<CalendarFeedDTO>>(FEEDS).then(
      (page) => live && setFeeds(page.results),
      (err: unknown) => {
        if (!live) return;
        setErrors(fieldErrorsOf(err, []));
        setFeeds([]);
      },
    );
    return () => {
      live = false;
    };
  }, []);

  const add = async (e: FormEvent) => {
    e.preventDefault();
    setAdding(true);
    setErrors({});
    try {
      const feed = await api.post<CalendarFeedDTO>(FEEDS, { url });
      setFeeds((list) => [...(list ?? []), feed]);
      setUrl('');
    } catch (err) {
      setErrors(fieldErrorsOf(err, ['url']));
    } finally {
      setAdding(false);
    }
  };
  const replace = (f: CalendarFeedDTO) => setFeeds((list) => (list ?? []).map((x) => (x.id === f.id ? f : x)));
  const remove = (id: number) => setFeeds((list) => (list ?? []).filter((x) => x.id !== id));

  return (
    <div className="dash-calendar-feeds">
      <h1 className="dash-title">My calendar feeds</h1>
      <section className="dash-panel" aria-labelledby="dash-feeds-add">
        <h2 id="dash-feeds-add" className="dash-subtitle">
          Add your events from a calendar
        </h2>
        <p>Run events? Paste the iCalendar (.ics) address of your calendar. We check it every hour and send each new or changed event to our editors, as if you had added it yourself.</p>
        <form onSubmit={add} noValidate>
          <div className="field">
            <label htmlFor="feed-url">Calendar address</label>
            <input id="feed-url" type="url" inputMode="url" placeholder="https://example.com/events.ics" value={url} onChange={(e) => setUrl(e.target.value)} aria-invalid={errors.url ? true : undefined} aria-describedby={errors.url ? 'feed-url-error' : undefined} required />
            <FieldError id="feed-url-error" message={errors.url} />
          </div>
          <FieldError message={errors.non_field_errors} />
          <p className="dash-actions">
            <button type="submit" disabled={adding}>
              {adding ? 'Adding…' : 'Add feed'}
            </button>
          </p>
        </form>
      </section>
      <section className="dash-panel" aria-labelledby="dash-feeds-list">
        <h2 id="dash-feeds-list" className="dash-subtitle">
          Your feeds
        </h2>
        {feeds === null ? <p className="dash-muted">Loading…</p> : feeds.length === 0 ? <p className="dash-muted">No feeds yet.</p> : (
          <ul className="dash-feeds">
            {feeds.map((f) => (
              <FeedItem key={f.id} feed={f} onChange={replace} onRemove={remove} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
