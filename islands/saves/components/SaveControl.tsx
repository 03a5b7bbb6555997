import { eventSaveRequested, toggleRequested } from '../actions';
import { awaitingMap, useSavesDispatch, useSavesSelector } from '../hooks';
import { OPS } from '../sagas';
import type { ControlType, ToggleKind } from '../types';
import { CalendarDialog } from './CalendarDialog';
import { RatingStars } from './RatingStars';
import { ToggleButton } from './ToggleButton';

// What one placeholder printed by templates/partials/save-controls.njk becomes.

const LABELS: Record<ToggleKind, { label: string; icon: [string, string] }> = {
  favourites: { label: 'Favourite', icon: ['♥', '♡'] },
  todos: { label: 'To-do', icon: ['✓', '+'] },
  articleBookmarks: { label: 'Bookmark', icon: ['★', '☆'] },
  videoBookmarks: { label: 'Save video', icon: ['★', '☆'] },
  eventBookmarks: { label: 'Save event', icon: ['★', '☆'] },
};

export function Toggle({ kind, objectId }: { kind: ToggleKind; objectId: number }) {
  const dispatch = useSavesDispatch();
  const pressed = useSavesSelector((s) => OPS[kind].select(s).map[objectId] !== undefined);
  const busy = useSavesSelector((s) => Boolean(OPS[kind].select(s).pending[objectId]) || awaitingMap(s, OPS[kind].select(s).loaded));
  const { label, icon } = LABELS[kind];
  return <ToggleButton label={label} icon={icon} pressed={pressed} busy={busy} className={`save-toggle--${kind}`} onToggle={() => dispatch(toggleRequested({ kind, objectId }))} />;
}

/** 'Add to my Events' / 'Saved' (spec 1 §4 text defaults); the calendar question when asked. */
export function EventSave({ eventId }: { eventId: number }) {
  const dispatch = useSavesDispatch();
  const saved = useSavesSelector((s) => s.bookmarks.events.map[eventId] !== undefined);
  const busy = useSavesSelector((s) => Boolean(s.bookmarks.events.pending[eventId]) || awaitingMap(s, s.bookmarks.events.loaded));
  const prompting = useSavesSelector((s) => s.profile.calendarPromptFor === eventId);
  return (
    <>
      <button type="button" className={`button event-save ${saved ? 'is-active' : ''}`} aria-busy={busy || undefined} disabled={busy} onClick={() => dispatch(eventSaveRequested({ eventId }))}>
        {saved ? 'Saved' : 'Add to my Events'}
      </button>
      {prompting && <CalendarDialog />}
    </>
  );
}

export function SaveControl({ type, objectId, name }: { type: ControlType; objectId: number; name?: string }) {
  switch (type) {
    case 'listing':
    case 'listing-compact':
      return (
        <div className={`listing-saves ${type === 'listing-compact' ? 'listing-saves--compact' : ''}`}>
          <Toggle kind="favourites" objectId={objectId} /> <Toggle kind="todos" objectId={objectId} />
          <RatingStars listingId={objectId} name={name} />
        </div>
      );
    case 'article':
      return <Toggle kind="articleBookmarks" objectId={objectId} />;
    case 'video':
      return <Toggle kind="videoBookmarks" objectId={objectId} />;
    case 'event':
      return <EventSave eventId={objectId} />;
  }
}
