import type { Knex } from 'knex';
import type { Db } from '../../db';
import type { ArticleDTO, ContestDTO, EventDTO, ListingDTO, VideoDTO } from '../../../shared/dto';
import { toArticleDTO, type ArticleRow } from '../articles/serialize';
import { articlesQuery, whereArticleIsPublic } from '../articles/queries';
import { eventsQuery, whereEventIsPublic } from '../events/queries';
import { videosQuery, whereVideoIsPublic } from '../videos/queries';
import { contestsQuery, whereContestIsPublic } from '../contests/queries';
import { listingsQuery } from '../listings/queries';
import { toListingDTO, type ListingRow } from '../listings/serialize';
import { toEventDTO, type EventRow } from '../events/serialize';
import { toVideoDTO, type VideoRow } from '../videos/serialize';
import { SITE_SEARCH_CATEGORIES, type SiteSearchCategory } from '../../../shared/site-search';
import { toContestDTO, type ContestRow } from '../contests/serialize';

// The five kinds of thing site search looks through, described once: the table and its
// tsvector `search` column, the date that "-date_published" sorts by, the name that typo
// matching compares (lower(name) has a trigram index), the text a snippet is cut from, what
// makes a row public, and how a page of rows becomes DTOs through the domain's serializer.
// The page of results is loaded as row_to_json of each domain query (one statement for all
// categories): serializers take timestamps as Date or ISO text alike.

export const SEARCH_CATEGORIES = SITE_SEARCH_CATEGORIES;
export type SearchCategory = SiteSearchCategory;

export type SearchObject = ArticleDTO | ListingDTO | EventDTO | VideoDTO | ContestDTO;

export interface HydratedRow {
  id: number;
  title: string;
  share_url: string;
  image_url: string | null;
  date: string | null;
  object: SearchObject;
}

export interface SearchSource {
  table: string;
  alias: string;
  /** The column typo matching compares, lower-cased (as its trigram index is). */
  name: string;
  /** What -date_published sorts by. */
  date: string;
  /** SQL for the text a snippet is cut from (a bounded length: ts_headline reads all of it). */
  snippetText: string;
  /** Which rows the public may find. */
  visible(qb: Knex.QueryBuilder, now: Date): void;
  /** The domain's list query for the rows whose id is in `ids` (SQL for an integer array), with `highlights` selected too. */
  query(db: Db, now: Date, ids: Knex.Raw, highlights: Knex.Raw[]): Knex.QueryBuilder;
  /** A row of that query as a DTO, with its highlights. */
  toResult(row: Record<string, unknown>, siteUrl: string, now: Date): HydratedRow & Highlights;
}

/** The highlighted title and snippet selected beside a domain's columns. */
export interface Highlights {
  search_title: string;
  search_snippet: string;
}

/** A source described by its domain's list query and the row type that query answers. */
type SourceSpec<Row> = Omit<SearchSource, 'query' | 'toResult'> & {
  rows(db: Db, now: Date): Knex.QueryBuilder;
  hydrate(row: Row, siteUrl: string, now: Date): HydratedRow;
};

function source<Row>({ rows, hydrate, ...spec }: SourceSpec<Row>): SearchSource {
  return {
    ...spec,
    query: (db, now, ids, highlights) => rows(db, now).whereRaw(`${spec.alias}.id = any(?)`, [ids]).select(highlights),
    toResult(found, siteUrl, now) {
      // The row type the domain's list query answers, plus the two highlights.
      const row = found as Row & Highlights;
      return { ...hydrate(row, siteUrl, now), search_title: row.search_title, search_snippet: row.search_snippet };
    },
  };
}

const iso = (d: unknown) => (d ? new Date(d as string).toISOString() : null);

export const SOURCES: Record<SearchCategory, SearchSource> = {
  articles: source<ArticleRow>({
    table: 'articles',
    alias: 'a',
    name: 'a.name',
    date: 'a.date_published',
    snippetText: "concat_ws(' ', a.excerpt, left(a.body, 1500))",
    visible: (qb, now) => void whereArticleIsPublic(qb, now),
    rows: (db, now) => articlesQuery(db, now),
    hydrate: (row, siteUrl) => {
      const dto = toArticleDTO(row, siteUrl);
      return { id: dto.id, title: dto.name, share_url: dto.share_url, image_url: dto.image_url, date: dto.date_published, object: dto };
    },
  }),
  listings: source<ListingRow>({
    table: 'listings',
    alias: 'l',
    name: 'l.name',
    date: 'l.date_published',
    snippetText: "concat_ws(' ', l.address, left(l.description, 1500))",
    visible: () => {},
    rows: (db) => listingsQuery(db),
    hydrate: (row, siteUrl) => {
      const dto = toListingDTO(row, siteUrl);
      return { id: dto.id, title: dto.name, share_url: dto.share_url, image_url: dto.image_url, date: dto.date_published, object: dto };
    },
  }),
  events: source<EventRow>({
    table: 'events',
    alias: 'e',
    name: 'e.title',
    date: 'e.date_created',
    snippetText: "concat_ws(' ', e.venue_name, left(e.description, 1500))",
    visible: (qb, now) => void whereEventIsPublic(qb, now),
    rows: (db, now) => eventsQuery(db, now),
    hydrate: (row, siteUrl) => {
      const dto = toEventDTO(row, siteUrl);
      return { id: dto.id, title: dto.title, share_url: dto.share_url, image_url: dto.image_url, date: iso(row.date_created), object: dto };
    },
  }),
  videos: source<VideoRow>({
    table: 'videos',
    alias: 'v',
    name: 'v.title',
    date: 'v.date_published',
    snippetText: 'left(v.description, 1500)',
    visible: (qb, now) => void whereVideoIsPublic(qb, now),
    rows: (db, now) => videosQuery(db, now),
    hydrate: (row, siteUrl) => {
      const dto = toVideoDTO(row, siteUrl);
      return { id: dto.id, title: dto.title, share_url: dto.share_url, image_url: dto.image_url, date: dto.date_published, object: dto };
    },
  }),
  contests: source<ContestRow>({
    table: 'contests',
    alias: 'c',
    name: 'c.title',
    date: 'c.date_published',
    snippetText: 'left(c.description, 1500)',
    visible: (qb, now) => void whereContestIsPublic(qb, now),
    rows: (db, now) => contestsQuery(db, now),
    hydrate: (row, siteUrl, now) => {
      const dto = toContestDTO(row, siteUrl, now);
      return { id: dto.id, title: dto.title, share_url: dto.share_url, image_url: dto.hub_page_image_url, date: iso(row.date_published), object: dto };
    },
  }),
};
