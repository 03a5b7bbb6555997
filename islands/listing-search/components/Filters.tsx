import { startTransition, useEffect, useId, useRef, useState } from 'react';
import { useDispatch } from 'react-redux';
import { neighbourhoodHubChosen } from '../actions';
import { activeFilterCount, filters } from '../slices/filters';
import { NEARBY_ID, type HubCriteria as Criteria, type HubOptions } from '../../../shared/listing-hub';
import { PlaceSearch } from './PlaceSearch';
import { ACCESSIBILITY_ATTRIBUTES } from '../../../shared/accessibility';

// The filters (spec 2 §2): the name-or-place field, then the dropdowns: category (another hub),
// sub-category, neighbourhood (with Nearby), subway stop, service, features (a multi-select:
// 'N Features Selected'), accessibility (the same, over shared/accessibility.ts) and best-of. All disabled while a search or a geolocation is under
// way. On x-small screens the dropdowns fold behind a 'Filters' button (listing-panel.css) so
// the results start on the first screen; from 640 px they are always shown.

interface Props {
  criteria: Criteria;
  options: HubOptions;
  fixedNeighbourhood: number | null;
  disabled: boolean;
  geolocation: boolean;
  cityName: string;
  /** The dropdowns are unfolded (only matters on x-small screens). */
  open: boolean;
}

export function featuresLabel(n: number): string {
  if (n === 0) return 'Features';
  return `${n} ${n === 1 ? 'Feature' : 'Features'} Selected`;
}

export function accessibilityLabel(n: number): string {
  return n === 0 ? 'Any accessibility' : `${n} Accessibility ${n === 1 ? 'Need' : 'Needs'}`;
}

const ACCESSIBILITY_OPTIONS = ACCESSIBILITY_ATTRIBUTES.map((a) => ({ value: a.key, name: a.label }));

const num = (v: string): number | null => (v === '' ? null : Number(v));

/**
 * Whether the long choice lists (Neighbourhood, about 160 options; Subway stop, about 75) are
 * rendered in full. The panel's first render has only the chosen one of each, so it replaces the
 * server's form in a shorter task (a closed select shows only its chosen option, so nothing on
 * screen changes); the rest come when the page is idle after it, in a transition, or at once
 * when one of the two is focused, pressed or typed into, before it can open or change.
 */
function useAllChoices(): [boolean, () => void] {
  const [all, setAll] = useState(false);
  useEffect(() => {
    if (all) return;
    const show = () => startTransition(() => setAll(true));
    if (typeof window.requestIdleCallback === 'function') {
      const idle = window.requestIdleCallback(show, { timeout: 1000 });
      return () => window.cancelIdleCallback(idle);
    }
    const timer = window.setTimeout(show, 50);
    return () => window.clearTimeout(timer);
  }, [all]);
  return [all, () => setAll(true)];
}

export function Filters({ criteria: c, options, fixedNeighbourhood, disabled, geolocation, cityName, open }: Props) {
  const dispatch = useDispatch();
  const id = useId();
  const type = options.types[c.categoryIndex] ?? options.types.find((t) => t.slug === c.category);
  const fixed = fixedNeighbourhood !== null;
  const chosen = activeFilterCount(c);
  const [allChoices, showAllChoices] = useAllChoices();
  // Focus and pointerdown come before a select opens or takes a key: the choices are there by then.
  const choicesWanted = allChoices ? {} : { onFocus: showAllChoices, onPointerDown: showAllChoices, onMouseDown: showAllChoices, onKeyDown: showAllChoices };
  const neighbourhoods = allChoices ? options.neighbourhoods : options.neighbourhoods.filter((n) => n.id === (fixed ? fixedNeighbourhood : c.neighborhoodId));
  const subwayStops = allChoices ? options.subwayStops : options.subwayStops.filter((s) => s.id === c.subwayStopId);

  return (
    <form className="hub-filters listing-search__filters" aria-label="Filter places" onSubmit={(e) => e.preventDefault()}>
      <div className="hub-filters__row hub-filters__row--search">
        <PlaceSearch disabled={disabled} />
        <button type="button" className="hub-filters__toggle button--secondary" aria-expanded={open} aria-controls={`${id}-more`} onClick={() => dispatch(filters.filtersToggled())}>
          {open ? 'Hide filters' : 'Filters'}
          {chosen > 0 && ` (${chosen})`}
        </button>
      </div>
      <div id={`${id}-more`} className="hub-filters__more" data-open={open}>
      <div className="hub-filters__row">
        <div className="field">
          <label htmlFor={`${id}-category`}>Category</label>
          <select
            id={`${id}-category`}
            value={c.category}
            disabled={disabled}
            onChange={(e) => dispatch(filters.categoryChosen({ index: e.target.selectedIndex, slug: e.target.value }))}
          >
            {options.types.map((t) => (
              <option key={t.id} value={t.slug}>
                {t.name}
              </option>
            ))}
          </select>
        </div>
        {!fixed && type && type.sub_types.length > 0 && (
          <div className="field">
            <label htmlFor={`${id}-sub`}>Sub-category</label>
            <select id={`${id}-sub`} value={c.subcategory ?? ''} disabled={disabled} onChange={(e) => dispatch(filters.subCategoryChosen(e.target.value || null))}>
              <option value="">All {type.name.toLowerCase()}</option>
              {type.sub_types.map((s) => (
                <option key={s.id} value={s.slug}>
                  {s.name}
                </option>
              ))}
            </select>
          </div>
        )}
        <div className="field">
          <label htmlFor={`${id}-neighbourhood`}>Neighbourhood</label>
          <select
            id={`${id}-neighbourhood`}
            value={fixed ? String(fixedNeighbourhood) : c.neighborhoodId === null ? '' : String(c.neighborhoodId)}
            disabled={disabled}
            {...choicesWanted}
            onChange={(e) => {
              const v = num(e.target.value);
              if (fixed) {
                const n = options.neighbourhoods.find((x) => x.id === v);
                dispatch(neighbourhoodHubChosen(n ? { id: n.id, slug: n.slug } : null));
              } else dispatch(filters.neighbourhoodChosen(v));
            }}
          >
            <option value="">All neighbourhoods</option>
            {!fixed && geolocation && <option value={String(NEARBY_ID)}>Nearby</option>}
            {neighbourhoods.map((n) => (
              <option key={n.id} value={String(n.id)}>
                {n.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-subway`}>Subway stop</label>
          <select id={`${id}-subway`} value={c.subwayStopId === null ? '' : String(c.subwayStopId)} disabled={disabled} {...choicesWanted} onChange={(e) => dispatch(filters.subwayStopChosen(num(e.target.value)))}>
            <option value="">Any subway stop</option>
            {subwayStops.map((s) => (
              <option key={s.id} value={String(s.id)}>
                {s.name}
              </option>
            ))}
          </select>
        </div>
        {options.services.length > 0 && (
          <div className="field">
            <label htmlFor={`${id}-service`}>Service</label>
            <select id={`${id}-service`} value={c.selectedServiceSlug ?? ''} disabled={disabled} onChange={(e) => dispatch(filters.serviceChosen(e.target.value || null))}>
              <option value="">Any service</option>
              {options.services.map((s) => (
                <option key={s.id} value={s.slug}>
                  {s.name}
                </option>
              ))}
            </select>
          </div>
        )}
        {options.features.length > 0 && (
          <MultiSelect
            label="Features"
            buttonText={featuresLabel(c.selectedFeatures.length)}
            clearText="Clear features"
            selected={c.selectedFeatures}
            options={options.features.map((f) => ({ value: f.slug, name: f.name }))}
            disabled={disabled}
            onChange={(chosen) => dispatch(filters.featuresChosen(chosen))}
          />
        )}
        <MultiSelect
          label="Accessibility"
          buttonText={accessibilityLabel(c.accessibility?.length ?? 0)}
          clearText="Clear accessibility"
          selected={c.accessibility ?? []}
          options={ACCESSIBILITY_OPTIONS}
          disabled={disabled}
          onChange={(chosen) => dispatch(filters.accessibilityChosen(chosen))}
        />
      </div>
      <div className="hub-filters__row">
        <label className="checkbox">
          <input type="checkbox" checked={c.bestOf} disabled={disabled} onChange={(e) => dispatch(filters.bestOfChosen(e.target.checked))} /> Best of {cityName} only
        </label>
        <label className="checkbox">
          <input type="checkbox" checked={c.openNow ?? false} disabled={disabled} onChange={(e) => dispatch(filters.openNowChosen(e.target.checked))} /> Open now
        </label>
        <label className="checkbox">
          <input type="checkbox" checked={c.includeClosed ?? false} disabled={disabled} onChange={(e) => dispatch(filters.includeClosedChosen(e.target.checked))} /> Include closed places
        </label>
      </div>
      </div>
    </form>
  );
}

interface MultiSelectProps {
  label: string;
  buttonText: string;
  clearText: string;
  selected: string[];
  options: Array<{ value: string; name: string }>;
  disabled: boolean;
  onChange(chosen: string[]): void;
}

/** A multi-select as a disclosure: the button names how many are chosen; Esc or a click outside closes it. */
function MultiSelect({ label, buttonText, clearText, selected, options, disabled, onChange }: MultiSelectProps) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const id = useId();

  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => !root.current?.contains(e.target as Node) && setOpen(false);
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);

  const toggle = (value: string, on: boolean) => onChange(on ? [...selected, value] : selected.filter((s) => s !== value));

  return (
    <div className="field multi-select" ref={root} onKeyDown={(e) => e.key === 'Escape' && setOpen(false)}>
      <span className="multi-select__label" id={`${id}-label`}>
        {label}
      </span>
      <button type="button" className="multi-select__button" aria-expanded={open} aria-controls={`${id}-panel`} aria-describedby={`${id}-label`} disabled={disabled} onClick={() => setOpen(!open)}>
        {buttonText}
      </button>
      {open && (
        <fieldset className="multi-select__panel" id={`${id}-panel`}>
          <legend className="visually-hidden">{label}</legend>
          <ul className="checkbox-list">
            {options.map((o) => (
              <li key={o.value}>
                <label className="checkbox">
                  <input type="checkbox" checked={selected.includes(o.value)} disabled={disabled} onChange={(e) => toggle(o.value, e.target.checked)} /> {o.name}
                </label>
              </li>
            ))}
          </ul>
          {selected.length > 0 && (
            <button type="button" className="button--quiet" disabled={disabled} onClick={() => onChange([])}>
              {clearText}
            </button>
          )}
        </fieldset>
      )}
    </div>
  );
}
