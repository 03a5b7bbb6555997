import type { Db } from '../../db';

// Many articles at once for search tests that need a word past EXACT_COUNT_LIMIT (service.ts):
// createArticle one by one would take minutes for a few thousand.

/**
 * Inserts `n` published articles of type `typeId`, "Ferry schedule 1" to n, a minute apart from
 * 2026-01-01, with the excerpt "Island ferry times." and the body `bodies[i % bodies.length]`.
 */
export async function insertFerryArticles(db: Db, typeId: number, n: number, bodies: readonly string[]): Promise<void> {
  await db.raw(
    `insert into articles (name, slug, path, type_id, excerpt, body, date_published)
     select 'Ferry schedule ' || i, 'ferry-schedule-' || i, '/news/2026/01/ferry-schedule-' || i || '/', ?, 'Island ferry times.',
            (?::text[])[i % cardinality(?::text[]) + 1], timestamptz '2026-01-01' + i * interval '1 minute'
     from generate_series(1, ?) as i`,
    [typeId, [...bodies], [...bodies], n],
  );
}
