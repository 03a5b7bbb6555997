import { z } from 'zod';
import { PAGE_SIZE, MAX_PAGE_SIZE } from '../../../shared/constants';
import { pageParamsFromQuery } from '../../http/pagination';
import { validate } from '../../http/validate';
import { ValidationError } from '../../http/errors';
import { MAX_QUERY_LENGTH } from './query-text';
import { SEARCH_CATEGORIES, type SearchCategory } from './source-queries';
import type { SiteSearchParams } from './service';

// GET /api/search/?serialize_for=web&q=&categories=&ordering=&offset=&limit=
// categories: 'all' (default) or a comma list (singular or plural names);
// ordering: relevancy (default) or -date_published; 18 to a page by relevancy, else 20.

export const SEARCH_ORDERINGS = ['relevancy', '-date_published'] as const;
export type SearchOrdering = (typeof SEARCH_ORDERINGS)[number];

const ALIASES: Record<string, SearchCategory> = Object.fromEntries(
  SEARCH_CATEGORIES.flatMap((c) => [[c, c], [c.replace(/s$/, ''), c]]),
) as Record<string, SearchCategory>;

const blankToUndefined = (v: unknown) => (v === '' ? undefined : v);
const schema = z.object({
  // A longer search (a pasted paragraph) is searched by its first characters, not refused.
  q: z.preprocess((v) => v ?? '', z.string({ message: 'Enter a search as text.' }).transform((v) => v.slice(0, MAX_QUERY_LENGTH))),
  categories: z.preprocess(blankToUndefined, z.string({ message: 'Enter all or a comma-separated list of categories.' }).max(200).optional()),
  ordering: z.preprocess(blankToUndefined, z.enum(SEARCH_ORDERINGS, { message: `Select a valid choice: ${SEARCH_ORDERINGS.join(', ')}.` }).default('relevancy')),
  serialize_for: z.preprocess(blankToUndefined, z.enum(['web'], { message: 'Select a valid choice: web.' }).optional()),
});

export function parseCategories(value: string | undefined): SearchCategory[] {
  if (!value || value.trim().toLowerCase() === 'all') return [...SEARCH_CATEGORIES];
  const out = new Set<SearchCategory>();
  for (const part of value.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean)) {
    if (part === 'all') return [...SEARCH_CATEGORIES];
    const c = ALIASES[part];
    if (!c) throw ValidationError.field('categories', `Select valid choices: all, ${SEARCH_CATEGORIES.join(', ')}.`);
    out.add(c);
  }
  return out.size ? [...out] : [...SEARCH_CATEGORIES];
}

export function parseSiteSearchParams(query: unknown): SiteSearchParams {
  const q = (query ?? {}) as Record<string, unknown>;
  const v = validate(schema, q);
  const defaultLimit = v.ordering === 'relevancy' ? PAGE_SIZE.searchRelevancy : PAGE_SIZE.searchDefault;
  const page = pageParamsFromQuery(q, defaultLimit, MAX_PAGE_SIZE);
  return { q: v.q, categories: parseCategories(v.categories), ordering: v.ordering, ...page };
}
