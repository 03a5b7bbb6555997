import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import { filters, KEYWORDS_MAX } from '../slices/filters';
import { SUGGESTION_KIND_LABELS, suggestions, suggestionsMessage, type SuggestedPlace } from '../slices/suggestions';
import type { ListingSearchState } from '../store';
import { TIMINGS_MS } from '../../../shared/constants';

// The keyword field with its place type-ahead (spec 2 §2, §5), an ARIA 1.2 combobox: typing
// lists the street addresses, stations and neighbourhoods the geocoder knows by it and the
// places whose names match, each marked with its kind; choosing one searches around it,
// nearest first (the suggestion); Search (or Enter with no place highlighted) looks for names containing the
// words (keywords). Clear drops either. The pointer highlights a place as the arrow keys do;
// it stays highlighted for a moment after the pointer leaves the list (spec 2 §9: 300 ms), so
// crossing a gap or a shaky hand does not make it flicker.

/** Arrow keys move through the places and back to the field (-1), wrapping at both ends. */
export function nextActive(current: number, step: 1 | -1, count: number): number {
  const next = current + step;
  if (next >= count) return -1;
  if (next < -1) return count - 1;
  return next;
}

export function PlaceSearch({ disabled }: { disabled: boolean }) {
  const dispatch = useDispatch();
  const id = useId();
  const s = useSelector((st: ListingSearchState) => st.suggestions);
  const { keywords, selectedSuggestion } = useSelector((st: ListingSearchState) => st.filters.criteria);
  const [active, setActive] = useState(-1);
  const deactivation = useRef<ReturnType<typeof setTimeout> | null>(null);
  const keepActive = () => {
    if (deactivation.current) clearTimeout(deactivation.current);
    deactivation.current = null;
  };
  const pointAt = (i: number) => {
    keepActive();
    setActive(i);
  };
  const deactivateSoon = () => {
    keepActive();
    deactivation.current = setTimeout(() => setActive(-1), TIMINGS_MS.activeResultDeactivation);
  };
  useEffect(() => keepActive, []);
  const listId = `${id}-places`;
  const message = s.open ? suggestionsMessage(s) : null;
  const showList = s.open && s.items.length > 0;
  const applied = keywords !== null || selectedSuggestion !== null;

  const choose = (place: SuggestedPlace) => {
    setActive(-1);
    dispatch(suggestions.textSet({ text: place.name, place: true }));
    dispatch(filters.suggestionChosen({ name: place.name, lat: place.lat, long: place.long }));
  };
  const submit = () => {
    setActive(-1);
    dispatch(suggestions.closed());
    if (s.place !== null) return; // the field shows the chosen place: nothing new to search
    const words = s.text.trim() || null;
    if (words !== keywords || selectedSuggestion !== null) dispatch(filters.keywordsChosen(words));
  };
  const clear = () => {
    setActive(-1);
    dispatch(suggestions.textSet({ text: '' }));
    dispatch(filters.keywordsChosen(null));
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    const n = s.items.length;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (!s.open) dispatch(suggestions.reopened());
      if (n === 0) return;
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive((a) => nextActive(a, step, n));
    } else if (e.key === 'Enter') {
      e.preventDefault();
      if (showList && active >= 0 && active < n) choose(s.items[active]);
      else if (!disabled) submit();
    } else if (e.key === 'Escape' && s.open) {
      e.preventDefault();
      setActive(-1);
      dispatch(suggestions.closed());
    }
  };

  return (
    <div className="field place-search">
      <label htmlFor={`${id}-input`}>Name or place</label>
      <div className="place-search__box">
        <input
          id={`${id}-input`}
          type="text"
          role="combobox"
          autoComplete="off"
          spellCheck={false}
          maxLength={KEYWORDS_MAX}
          placeholder="e.g. Libretto"
          aria-autocomplete="list"
          aria-expanded={showList}
          aria-controls={showList ? listId : undefined}
          aria-activedescendant={showList && active >= 0 ? `${listId}-${active}` : undefined}
          aria-describedby={`${id}-hint`}
          value={s.text}
          onChange={(e) => {
            setActive(-1);
            dispatch(suggestions.textTyped(e.target.value));
          }}
          onKeyDown={onKeyDown}
          onFocus={() => dispatch(suggestions.reopened())}
          onBlur={() => dispatch(suggestions.closed())}
        />
        <button type="button" className="place-search__submit" disabled={disabled} onClick={submit}>
          Search<span className="visually-hidden"> names</span>
        </button>
        {applied && (
          <button type="button" className="button--quiet place-search__clear" disabled={disabled} onClick={clear}>
            Clear<span className="visually-hidden"> name or place</span>
          </button>
        )}
      </div>
      <p id={`${id}-hint`} className="visually-hidden">
        Search finds names containing your words; choose a suggested place, address, station or neighbourhood to see what is nearby.
      </p>
      {showList && (
        <ul id={listId} role="listbox" className="place-search__list" aria-label="Places, addresses and stations: choose one to search nearby" onMouseLeave={deactivateSoon}>
          {s.items.map((p, i) => (
            <li
              key={`${p.kind}-${p.id}-${p.name}`}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === active}
              className="place-search__option"
              onMouseEnter={() => pointAt(i)}
              // Chosen on mousedown: a click would come after the field's blur closed the list.
              onMouseDown={(e) => {
                e.preventDefault();
                choose(p);
              }}
            >
              <span className="place-search__kind">{SUGGESTION_KIND_LABELS[p.kind]}</span>
              <span className="place-search__name">{p.name}</span>
              {p.address && <span className="place-search__address">{p.address}</span>}
            </li>
          ))}
        </ul>
      )}
      <p className="place-search__message" role="status">
        {message}
      </p>
    </div>
  );
}
