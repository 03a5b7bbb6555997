import { useEffect, useRef, useState, type FormEvent, type MouseEvent, type ReactNode } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import {
  noResultsMessage,
  resultsHeading,
  SEARCH_EDIT_PROMPT,
  SITE_SEARCH_CATEGORY_NAMES,
  SITE_SEARCH_TABS,
  siteSearchCategoryName,
  siteSearchLimit,
  siteSearchUrl,
  type SiteSearchCategory,
  type SiteSearchParams,
  type SiteSearchResultDTO,
} from '../../../shared/site-search';
import { longDate } from '../../../shared/format/date';
import { pictureUrl } from '../../common/picture-url';
import { siteConfig } from '../../common/initial-state';
import { groupByCategory, search, tabCount } from '../slices/search';
import type { SearchAppState } from '../store';

// The search app: title, query form, category tabs, DATE / RELEVANCY tabs, the results heading
// or the spec's no-results message, results grouped by category with thumbnails, and
// Previous / Next. Tabs and pages are links to the same URLs the server renders (a new tab or
// a copied link works without the island); a plain click searches in place.

const plainClick = (e: MouseEvent) => !(e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey);

function Tab({ href, active, onChoose, children, className = 'tabs__link' }: { href: string; active: boolean; onChoose(): void; children: ReactNode; className?: string }) {
  return (
    <li>
      <a
        className={className}
        href={href}
        aria-current={active ? 'true' : undefined}
        onClick={(e) => {
          if (!plainClick(e)) return;
          e.preventDefault();
          onChoose();
        }}
      >
        {children}
      </a>
    </li>
  );
}

function ResultItem({ r }: { r: SiteSearchResultDTO }) {
  return (
    <li className="search-result">
      {r.image_url ? <img className="search-result__thumb" src={pictureUrl(r.image_url, 'listingCard')} width={105} height={70} alt="" loading="lazy" decoding="async" /> : <span className="search-result__thumb search-result__thumb--none" />}
      <div className="search-result__body">
        {/* The server escapes titles and snippets and adds only <mark>. */}
        <h4 className="search-result__title">
          <a href={r.share_url} dangerouslySetInnerHTML={{ __html: r.highlighted_title }} />
        </h4>
        {r.snippet && <p className="search-result__snippet" dangerouslySetInnerHTML={{ __html: r.snippet }} />}
        {r.date_published && (
          <time className="card__date" dateTime={r.date_published}>
            {longDate(r.date_published, siteConfig().timeZone || 'America/Toronto')}
          </time>
        )}
      </div>
    </li>
  );
}

export function App() {
  const dispatch = useDispatch();
  const state = useSelector((s: SearchAppState) => s.search);
  const { params, result, status, categories } = state;
  const [text, setText] = useState(params.q);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const lastOffset = useRef(params.offset);

  // Back/forward can change the query: the field follows (adjusted while rendering, not in an effect).
  const [fieldFor, setFieldFor] = useState(params.q);
  if (fieldFor !== params.q) {
    setFieldFor(params.q);
    setText(params.q);
  }
  useEffect(() => {
    document.title = `${params.q ? `Search results for “${params.q}”` : 'Search'} | ${siteConfig().name}`;
  }, [params.q]);
  // A new page of results: back to its heading, as a page load would be.
  useEffect(() => {
    if (status !== 'succeeded' || lastOffset.current === params.offset) return;
    lastOffset.current = params.offset;
    headingRef.current?.scrollIntoView({ block: 'start' });
  }, [status, params.offset]);

  const href = (o: Partial<SiteSearchParams>) => siteSearchUrl({ ...params, offset: 0, ...o });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    // An empty query does nothing (as in the navbar's search panel).
    if (text.trim()) dispatch(search.submitted(text));
  };
  const limit = siteSearchLimit(params.ordering);
  const all = params.categories === 'all';
  const groups = result ? (all ? groupByCategory(result.results) : [{ category: params.categories, results: result.results }]) : [];
  const countLabel = (c: string) => {
    const n = tabCount(state, c);
    return n === null ? null : <span className="search-app__tab-count"> ({n.toLocaleString('en-CA')})</span>;
  };

  return (
    <div className="search-app" data-enhanced="true">
      <header className="page-header">
        <h1 className="page-header__title">{params.q ? `Search results for “${params.q}”` : 'Search'}</h1>
      </header>
      <form className="search-form" action="/search" method="get" role="search" onSubmit={submit}>
        <div className="field">
          <label htmlFor="search-q">Search for</label>
          <input id="search-q" name="q" type="search" value={text} maxLength={200} placeholder="What cha looking for?" onChange={(e) => setText(e.target.value)} />
        </div>
        <button type="submit">Search</button>
      </form>
      {params.q && (
        <>
          <nav className="tabs search-app__categories" aria-label="Categories">
            <ul className="tabs__list">
              <Tab href={href({ categories: 'all' })} active={all} onChoose={() => dispatch(search.categoryChosen('all'))}>
                All{countLabel('all')}
              </Tab>
              {/* A category known to have nothing is left out (unless it is the one shown). */}
              {categories
                .filter((c) => tabCount(state, c) !== 0 || params.categories === c)
                .map((c: SiteSearchCategory) => (
                <Tab key={c} href={href({ categories: c })} active={params.categories === c} onChoose={() => dispatch(search.categoryChosen(c))}>
                  {SITE_SEARCH_CATEGORY_NAMES[c]}
                  {countLabel(c)}
                </Tab>
              ))}
            </ul>
          </nav>
          <nav className="tabs" aria-label="Sort results">
            <ul className="tabs__list">
              {SITE_SEARCH_TABS.map((t) => (
                <Tab key={t.ordering} href={href({ ordering: t.ordering })} active={params.ordering === t.ordering} onChoose={() => dispatch(search.orderingChosen(t.ordering))}>
                  {t.label}
                </Tab>
              ))}
            </ul>
          </nav>
          <div className="search-app__results" aria-busy={status === 'loading'}>
            {status === 'loading' && !result && <p role="status">Searching…</p>}
            {result && result.count === 0 && (
              <div className="notice" role="status">
                <p>{noResultsMessage(params.q, siteSearchCategoryName(params.categories))}</p>
                <p>{SEARCH_EDIT_PROMPT}</p>
              </div>
            )}
            {result && result.count > 0 && (
              <>
                {/* A live region around the heading (role=status on the h2 itself would hide that it is a heading). */}
                <div role="status">
                  <h2 className="search-results__heading" ref={headingRef} tabIndex={-1}>
                    {resultsHeading(result, params.q)}
                  </h2>
                </div>
                {groups.map((g) => (
                  <section key={g.category} className="search-app__group" aria-labelledby={`search-group-${g.category}`}>
                    <h3 id={`search-group-${g.category}`} className="search-app__group-title">
                      {siteSearchCategoryName(g.category) ?? g.category}
                    </h3>
                    <ol className="plain-list search-results">
                      {g.results.map((r) => (
                        <ResultItem key={`${r.category}:${r.id}`} r={r} />
                      ))}
                    </ol>
                  </section>
                ))}
                {result.results.length === 0 && <p>No more results on this page.</p>}
                {(params.offset > 0 || params.offset + limit < result.count) && (
                  <nav className="pagination" aria-label="Result pages">
                    <ul className="pagination__list">
                      {params.offset > 0 && (
                        <Tab className="pagination__link" href={href({ offset: Math.max(0, params.offset - limit) })} active={false} onChoose={() => dispatch(search.offsetChosen(params.offset - limit))}>
                          Previous<span className="visually-hidden"> results</span>
                        </Tab>
                      )}
                      {params.offset + limit < result.count && (
                        <Tab className="pagination__link" href={href({ offset: params.offset + limit })} active={false} onChoose={() => dispatch(search.offsetChosen(params.offset + limit))}>
                          Next<span className="visually-hidden"> results</span>
                        </Tab>
                      )}
                    </ul>
                  </nav>
                )}
              </>
            )}
          </div>
        </>
      )}
    </div>
  );
}
