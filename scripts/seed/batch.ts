import type { Knex } from 'knex';

// Multi-row INSERTs: one statement per batch instead of one per row is what makes the demo
// seed take seconds on PGlite. PostgreSQL caps a statement at 65,535 bind parameters, so the
// batch size shrinks for wide rows.

const MAX_PARAMS = 60_000;

export async function insertBatches<T extends Record<string, unknown>>(db: Knex, table: string, rows: T[], batchSize = 1000): Promise<void> {
  if (!rows.length) return;
  const width = Object.keys(rows[0]).length || 1;
  const size = Math.max(1, Math.min(batchSize, Math.floor(MAX_PARAMS / width)));
  for (let i = 0; i < rows.length; i += size) await db(table).insert(rows.slice(i, i + size));
}

/** Inserts and answers the new ids in the order of `rows` (PostgreSQL keeps VALUES order). */
export async function insertReturningIds<T extends Record<string, unknown>>(db: Knex, table: string, rows: T[], batchSize = 1000): Promise<number[]> {
  const ids: number[] = [];
  if (!rows.length) return ids;
  const width = Object.keys(rows[0]).length || 1;
  const size = Math.max(1, Math.min(batchSize, Math.floor(MAX_PARAMS / width)));
  for (let i = 0; i < rows.length; i += size) {
    const out = await db(table).insert(rows.slice(i, i + size)).returning('id');
    for (const r of out as Array<{ id: number } | number>) ids.push(Number(typeof r === 'object' ? r.id : r));
  }
  return ids;
}

/** Dedupes slugs within a run: "name", "name-2", "name-3"... */
export class SlugRegistry {
  private readonly used = new Set<string>();

  take(base: string, fallbackSuffix?: string): string {
    let slug = base;
    if (this.used.has(slug) && fallbackSuffix) slug = `${base}-${fallbackSuffix}`.slice(0, 240);
    let n = 2;
    while (this.used.has(slug)) slug = `${base}-${n++}`;
    this.used.add(slug);
    return slug;
  }
}
