import { useEffect, useRef, type FormEvent } from 'react';
import { useNavbarDispatch } from '../hooks';
import { panels } from '../slices/panels';

export const SEARCH_PROMPT = 'What cha looking for?';

/** Submits to /search?q=…; Esc closes; an empty query does nothing (spec 2 §2). */
export function SearchPanel() {
  const dispatch = useNavbarDispatch();
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    input.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') dispatch(panels.closed());
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [dispatch]);
  const submit = (e: FormEvent<HTMLFormElement>) => {
    if (!input.current?.value.trim()) e.preventDefault();
  };
  return (
    <div className="nav-panel nav-panel--search" id="nav-search-panel" role="search">
      <form action="/search" method="get" onSubmit={submit}>
        <label htmlFor="nav-search-panel-q" className="nav-panel__title">
          {SEARCH_PROMPT}
        </label>
        <div className="nav-panel__search-row">
          <input ref={input} id="nav-search-panel-q" name="q" type="search" maxLength={200} placeholder={SEARCH_PROMPT} autoComplete="off" />
          <button type="submit">Search</button>
        </div>
      </form>
    </div>
  );
}
