import { useEffect, useId, useState } from 'react';

// A search field with its matches as buttons below it (Tab or the arrow keys reach them),
// asked for 250 ms after the last keystroke; used by the link and live-card dialogs.

interface TypeAheadProps<T> {
  label: string;
  search: (q: string) => Promise<T[]>;
  optionLabel: (item: T) => string;
  optionDetail?: (item: T) => string;
  onPick: (item: T) => void;
  onQuery?: (q: string) => void;
  /** A new value here asks again (the live card's kind). */
  scope?: string;
}

export function TypeAhead<T>({ label, search, optionLabel, optionDetail, onPick, onQuery, scope }: TypeAheadProps<T>) {
  const id = useId();
  const [q, setQ] = useState('');
  const [results, setResults] = useState<T[]>([]);
  const [state, setState] = useState<'idle' | 'loading' | 'done' | 'error'>('idle');

  useEffect(() => {
    if (!q.trim()) return;
    let live = true;
    const t = setTimeout(() => {
      setState('loading');
      search(q.trim()).then(
        (r) => live && (setResults(r), setState('done')),
        () => live && (setResults([]), setState('error')),
      );
    }, 250);
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [q, scope, search]);

  const shown = q.trim() ? results : [];
  const moveFocus = (e: React.KeyboardEvent<HTMLElement>) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    const list = Array.from(document.querySelectorAll<HTMLButtonElement>(`[data-typeahead="${id}"]`));
    const at = list.indexOf(document.activeElement as HTMLButtonElement);
    const next = e.key === 'ArrowDown' ? list[at + 1] : at > 0 ? list[at - 1] : document.getElementById(`${id}-q`);
    if (next) {
      e.preventDefault();
      next.focus();
    }
  };

  return (
    <div className="typeahead" onKeyDown={moveFocus}>
      <label htmlFor={`${id}-q`}>{label}</label>
      <input
        id={`${id}-q`}
        type="search"
        value={q}
        autoComplete="off"
        aria-describedby={`${id}-status`}
        onChange={(e) => {
          setQ(e.target.value);
          onQuery?.(e.target.value);
        }}
      />
      <p id={`${id}-status`} className="typeahead__status" aria-live="polite">
        {!q.trim() ? '' : state === 'loading' ? 'Searching…' : state === 'error' ? 'The search did not answer.' : state === 'done' && !shown.length ? 'No results found' : state === 'done' ? `${shown.length} found` : ''}
      </p>
      {shown.length > 0 && (
        <ul className="typeahead__list">
          {shown.map((item, i) => (
            <li key={i}>
              <button type="button" className="typeahead__option" data-typeahead={id} onClick={() => onPick(item)}>
                <span>{optionLabel(item)}</span>
                {optionDetail && <span className="typeahead__detail">{optionDetail(item)}</span>}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
