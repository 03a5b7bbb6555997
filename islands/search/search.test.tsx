/// <reference types="jest" />
import { act, fireEvent, screen, within } from '@testing-library/react';
import { renderWithStore } from '../common/test-utils';
import { App } from './components/App';
import { apiQuery, groupByCategory, initialSearchState, search, searchSlice, tabCount } from './slices/search';
import { createSearchStore, type SearchContext } from './store';
import type { SiteSearchPage } from './api';
import {
  noResultsMessage,
  resultsHeading,
  siteSearchParamsFromQuery,
  siteSearchUrl,
  type SearchIslandState,
  type SiteSearchCategory,
  type SiteSearchResultDTO,
} from '../../shared/site-search';

// The search app's state rules (spec 2 §2 "Search app", §7, §8): URL and API query, what a
// change resets, stale answers, a failure clears the list, back/forward restore without a new
// history entry, and the messages word for word.

const result = (id: number, category: SiteSearchCategory = 'articles'): SiteSearchResultDTO => ({
  category,
  id,
  title: `Pizza ${id}`,
  highlighted_title: `<mark>Pizza</mark> ${id}`,
  share_url: `https://site.test/${category}/${id}/`,
  image_url: id % 2 ? `/media/img/${id}.jpg` : null,
  date_published: '2026-01-10T12:00:00Z',
  snippet: `About <mark>pizza</mark> &amp; more ${id}`,
});

const answer = (results: SiteSearchResultDTO[], count = results.length, counts: Partial<Record<SiteSearchCategory, number>> = { articles: count }) => ({
  count,
  counts,
  count_estimated: false,
  match: 'fulltext' as const,
  corrected: null,
  results,
});

const pageOf = (a: ReturnType<typeof answer>): SiteSearchPage => ({ ...a, next: null, previous: null });

const initial = (over: Partial<SearchIslandState> = {}): SearchIslandState => ({
  params: { q: 'pizza', categories: 'all', ordering: 'relevancy', offset: 0 },
  result: answer([result(1), result(2, 'listings'), result(3)], 40, { articles: 30, listings: 10 }),
  categories: ['articles', 'listings', 'events', 'videos', 'contests'],
  ...over,
});

function fakeContext(over: Partial<SearchContext> = {}) {
  return {
    api: { search: jest.fn().mockResolvedValue(pageOf(answer([result(9)], 1))) },
    pushUrl: jest.fn(),
    debug: jest.fn(),
    ...over,
  };
}

const settle = async () => {
  for (let i = 0; i < 5; i += 1) await Promise.resolve();
  await new Promise((resolve) => setTimeout(resolve, 0));
};

describe('search URL and API query', () => {
  test('defaults are left out of the URL; the URL reads back to the same parameters', () => {
    expect(siteSearchUrl({ q: '', categories: 'all', ordering: 'relevancy', offset: 0 })).toBe('/search');
    const p = { q: 'best pizza', categories: 'articles', ordering: '-date_published' as const, offset: 20 };
    const url = siteSearchUrl(p);
    expect(url).toBe('/search?q=best+pizza&categories=articles&ordering=-date_published&offset=20');
    expect(siteSearchParamsFromQuery(url.slice('/search'.length))).toEqual(p);
    expect(siteSearchParamsFromQuery('?ordering=nonsense&offset=-3')).toEqual({ q: '', categories: 'all', ordering: 'relevancy', offset: 0 });
  });

  test('the API query names serialize_for, q, offset, categories, ordering and the page size of the ordering', () => {
    expect(apiQuery({ q: 'pizza', categories: 'all', ordering: 'relevancy', offset: 0 })).toEqual({
      serialize_for: 'web',
      q: 'pizza',
      offset: null,
      categories: null,
      ordering: 'relevancy',
      limit: 18,
    });
    expect(apiQuery({ q: 'pizza', categories: 'events', ordering: '-date_published', offset: 40 })).toMatchObject({ offset: 40, categories: 'events', limit: 20 });
  });

  test('messages are the spec’s, word for word', () => {
    expect(noResultsMessage('pizza', null)).toBe('Sorry there are no results for “pizza” anywhere on the site.');
    expect(noResultsMessage('pizza', 'Events')).toBe('Sorry there are no results for “pizza” in Events.');
    expect(resultsHeading({ count: 1 }, 'x')).toBe('1 result');
    expect(resultsHeading({ count: 2400, count_estimated: true }, 'x')).toBe('About 2,400 results');
    expect(resultsHeading({ count: 3, match: 'similar', corrected: 'pizza' }, 'pizaa')).toBe('3 results for “pizza”');
  });
});

describe('search state rules', () => {
  const start = () => initialSearchState(initial());
  const reduce = (...actions: Parameters<typeof searchSlice.reducer>[1][]) => actions.reduce(searchSlice.reducer, start());

  test('a new query, category or ordering goes back to the first page; a page keeps the rest', () => {
    const paged = reduce(search.offsetChosen(18));
    expect(paged.params).toEqual({ q: 'pizza', categories: 'all', ordering: 'relevancy', offset: 18 });
    expect(searchSlice.reducer(paged, search.submitted('  tacos ')).params).toMatchObject({ q: 'tacos', offset: 0 });
    expect(searchSlice.reducer(paged, search.categoryChosen('events')).params).toMatchObject({ categories: 'events', offset: 0 });
    expect(searchSlice.reducer(paged, search.orderingChosen('-date_published')).params).toMatchObject({ ordering: '-date_published', offset: 0 });
  });

  test('an answer for an older search is dropped; a failure clears the list', () => {
    const first = reduce(search.categoryChosen('events'));
    const second = searchSlice.reducer(first, search.categoryChosen('videos'));
    const stale = searchSlice.reducer(second, search.loaded({ generation: first.generation, result: answer([result(5, 'events')]) }));
    expect(stale.status).toBe('loading');
    expect(stale.result?.results.map((r) => r.id)).toEqual([1, 2, 3]);
    const failed = searchSlice.reducer(second, search.failed({ generation: second.generation }));
    expect(failed).toMatchObject({ status: 'failed', result: null });
  });

  test('an empty query shows just the form', () => {
    expect(reduce(search.restored({ q: '', categories: 'all', ordering: 'relevancy', offset: 0 }))).toMatchObject({ status: 'idle', result: null });
  });

  test('tab counts come from the last search of everything for the same query', () => {
    const s = reduce(search.categoryChosen('listings'));
    expect(tabCount(s, 'all')).toBe(40);
    expect(tabCount(s, 'listings')).toBe(10);
    expect(tabCount(s, 'events')).toBe(0);
    const other = searchSlice.reducer(s, search.submitted('tacos'));
    expect(tabCount(other, 'all')).toBeNull();
  });

  test('results are grouped by category in the order each first appears', () => {
    const groups = groupByCategory([result(1), result(2, 'listings'), result(3)]);
    expect(groups.map((g) => [g.category, g.results.map((r) => r.id)])).toEqual([
      ['articles', [1, 3]],
      ['listings', [2]],
    ]);
  });
});

describe('search sagas', () => {
  test('a change pushes its URL and searches; back/forward searches without a new history entry', async () => {
    const ctx = fakeContext();
    const store = createSearchStore(initial(), ctx);
    store.dispatch(search.orderingChosen('-date_published'));
    await settle();
    expect(ctx.pushUrl).toHaveBeenCalledWith('/search?q=pizza&ordering=-date_published');
    expect(ctx.api.search).toHaveBeenCalledWith(expect.objectContaining({ q: 'pizza', ordering: '-date_published', limit: 20 }));
    expect(store.getState().search).toMatchObject({ status: 'succeeded', result: { count: 1 } });
    store.dispatch(search.restored(siteSearchParamsFromQuery('?q=pizza')));
    await settle();
    expect(ctx.pushUrl).toHaveBeenCalledTimes(1);
    expect(ctx.api.search).toHaveBeenCalledTimes(2);
  });

  test('a failed search is logged for debugging and clears the list', async () => {
    const ctx = fakeContext({ api: { search: jest.fn().mockRejectedValue(new Error('offline')) } });
    const store = createSearchStore(initial(), ctx);
    store.dispatch(search.submitted('tacos'));
    await settle();
    expect(ctx.debug).toHaveBeenCalled();
    expect(store.getState().search).toMatchObject({ status: 'failed', result: null });
  });
});

describe('search app', () => {
  test('shows the printed results grouped by category with thumbnails; a tab searches in place', async () => {
    const ctx = fakeContext({ api: { search: jest.fn().mockResolvedValue(pageOf(answer([result(2, 'listings')], 10, { listings: 10 }))) } });
    const store = createSearchStore(initial(), ctx);
    renderWithStore(<App />, store);
    expect(screen.getByRole('heading', { level: 1, name: 'Search results for “pizza”' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: '40 results' })).toBeTruthy();
    const articles = screen.getByRole('region', { name: 'Articles' });
    expect(within(articles).getAllByRole('listitem')).toHaveLength(2);
    expect(articles.querySelector('img')?.getAttribute('src')).toBe('/media/img/1.jpg?w=210&h=140&cmd=crop');
    expect(within(articles).getAllByRole('link')[0].innerHTML).toBe('<mark>Pizza</mark> 1');
    expect(screen.getByRole('link', { name: 'Places (10)' }).getAttribute('href')).toBe('/search?q=pizza&categories=listings');
    expect(screen.getByRole('link', { name: 'RELEVANCY' }).getAttribute('aria-current')).toBe('true');
    expect(screen.getByRole('link', { name: 'Next results' }).getAttribute('href')).toBe('/search?q=pizza&offset=18');

    fireEvent.click(screen.getByRole('link', { name: 'Places (10)' }));
    await act(settle);
    expect(ctx.pushUrl).toHaveBeenCalledWith('/search?q=pizza&categories=listings');
    expect(screen.getByRole('link', { name: 'Places (10)' }).getAttribute('aria-current')).toBe('true');
    expect(screen.getByRole('heading', { name: '10 results' })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Places' })).toBeTruthy();
  });

  test('no results: the spec’s message for the category; an empty query is not searched', async () => {
    const ctx = fakeContext({ api: { search: jest.fn().mockResolvedValue(pageOf(answer([], 0, {}))) } });
    const store = createSearchStore(initial({ params: { q: 'pizza', categories: 'events', ordering: 'relevancy', offset: 0 } }), ctx);
    renderWithStore(<App />, store);
    fireEvent.change(screen.getByLabelText('Search for'), { target: { value: 'zzz' } });
    fireEvent.submit(screen.getByRole('search'));
    await act(settle);
    expect(screen.getByText('Sorry there are no results for “zzz” in Events.')).toBeTruthy();
    expect(screen.getByText('Please edit your search above.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Search for'), { target: { value: '   ' } });
    fireEvent.submit(screen.getByRole('search'));
    await act(settle);
    expect(ctx.api.search).toHaveBeenCalledTimes(1);
  });

  test('a failure clears the list without a message', async () => {
    const ctx = fakeContext({ api: { search: jest.fn().mockRejectedValue(new Error('offline')) } });
    const store = createSearchStore(initial(), ctx);
    renderWithStore(<App />, store);
    fireEvent.click(screen.getByRole('link', { name: 'DATE' }));
    await act(settle);
    expect(screen.queryAllByRole('listitem').filter((li) => li.classList.contains('search-result'))).toHaveLength(0);
    expect(screen.queryByText(/Sorry there are no results/)).toBeNull();
  });
});
