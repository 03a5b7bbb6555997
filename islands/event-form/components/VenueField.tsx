import { useState, type KeyboardEvent } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import { eventForm, venueFieldName, venueSearchMessage } from '../slice';
import type { EventFormRootState } from '../store';
import { Errors, invalidProps } from './FieldErrors';

// The venue: a combobox that searches the places we list and street addresses as one types
// (the sagas fetch), arrow keys move through the suggestions, Enter picks, Esc closes.
export function VenueField({ uid }: { uid: string }) {
  const dispatch = useDispatch();
  const s = useSelector((r: EventFormRootState) => r.eventForm);
  const [activeOption, setActiveOption] = useState(-1);
  const listboxId = `${uid}-venues`;
  const venueMessage = venueSearchMessage(s);

  const onVenueKey = (ev: KeyboardEvent<HTMLInputElement>) => {
    if (!s.suggestions.length) return;
    if (ev.key === 'ArrowDown' || ev.key === 'ArrowUp') {
      ev.preventDefault();
      const n = s.suggestions.length;
      setActiveOption((i) => (ev.key === 'ArrowDown' ? (i + 1) % n : (i - 1 + n) % n));
    } else if (ev.key === 'Enter' && activeOption >= 0) {
      ev.preventDefault();
      dispatch(eventForm.venueChosen(s.suggestions[activeOption]));
      setActiveOption(-1);
    } else if (ev.key === 'Escape') {
      dispatch(eventForm.suggestionsClosed());
    }
  };

  return (
    <div className="field event-form__venue">
      <label htmlFor={`${uid}-venue`}>Venue</label>
      {/* The list hangs from the field itself (the column around them would put it at its top). */}
      <div className="event-form__combobox">
        <input
          id={`${uid}-venue`}
          name={venueFieldName(s)}
          maxLength={255}
          autoComplete="off"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={s.suggestions.length > 0}
          aria-controls={listboxId}
          aria-activedescendant={activeOption >= 0 && s.suggestions.length ? `${listboxId}-${activeOption}` : undefined}
          value={s.venue.name}
          disabled={s.multipleVenues || s.virtual}
          onChange={(ev) => {
            setActiveOption(-1);
            dispatch(eventForm.venueTyped(ev.target.value));
          }}
          onKeyDown={onVenueKey}
          onBlur={() => {
            dispatch(eventForm.venueLeft());
            window.setTimeout(() => dispatch(eventForm.suggestionsClosed()), 150);
          }}
          {...invalidProps(s.errors, 'venueName', 'venueDisplayName')}
        />
        <ul id={listboxId} role="listbox" aria-label="Venue suggestions" className="event-form__suggestions" hidden={!s.suggestions.length}>
          {s.suggestions.map((l, i) => (
            <li
              key={`${l.kind}-${l.id}-${l.name}`}
              id={`${listboxId}-${i}`}
              role="option"
              aria-selected={i === activeOption}
              className={i === activeOption ? 'is-active' : undefined}
              onMouseDown={(ev) => {
                ev.preventDefault();
                dispatch(eventForm.venueChosen(l));
              }}
            >
              {l.kind === 'address' ? (
                <>
                  <span className="event-form__kind">Address</span> <strong>{l.name}</strong>
                </>
              ) : (
                <>
                  <span className="event-form__kind">Place</span> <strong>{l.name}</strong> <span>{l.address}</span>
                </>
              )}
            </li>
          ))}
        </ul>
      </div>
      {/* Always in the page, so screen readers hear 'No results found' when it appears. */}
      <p className="event-form__venue-message" role="status">
        {venueMessage}
      </p>
      <span className="field__hint">Start typing to pick a place we list or a street address, or type the venue name.</span>
      <Errors keys={['venueName', 'venueDisplayName']} errors={s.errors} />
    </div>
  );
}
