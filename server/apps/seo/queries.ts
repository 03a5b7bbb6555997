import type { Db } from '../../db';
import type { ArticleRow } from '../articles/serialize';
import { articlesQuery } from '../articles/queries';

// The feeds' reads that are theirs alone (api.ts); the sitemaps' are in sitemap-queries.ts.

/** One article type's newest public articles at `now`, for its RSS feed. */
export async function latestArticlesOfType(db: Db, now: Date, typeId: number, limit: number): Promise<ArticleRow[]> {
  return articlesQuery(db, now).where('a.type_id', typeId).orderBy([{ column: 'a.date_published', order: 'desc' }, { column: 'a.id', order: 'desc' }]).limit(limit);
}
