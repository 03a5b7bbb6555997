import type { Knex } from 'knex';

// Conventions written once (as Ghost's schema header does): ids are serial integers, times are
// timestamptz, text limits come from the specs, and member-owned rows go with their member.

export function timestamps(t: Knex.CreateTableBuilder, knex: Knex): void {
  t.timestamp('date_created', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  t.timestamp('date_updated', { useTz: true }).notNullable().defaultTo(knex.fn.now());
}

export function ownedByMember(t: Knex.CreateTableBuilder): void {
  t.integer('profile_id').notNullable().references('id').inTable('profiles').onDelete('CASCADE');
}

/** A generated, stored tsvector column with a GIN index (the statement PostgreSQL 15 accepts). */
export async function addSearchVector(knex: Knex, table: string, expression: string): Promise<void> {
  await knex.raw(`ALTER TABLE ?? ADD COLUMN search tsvector GENERATED ALWAYS AS (${expression}) STORED`, [table]);
  await knex.raw(`CREATE INDEX ?? ON ?? USING gin (search)`, [`${table}_search_gin`, table]);
}

/** A trigram index on lower(column), for typo-tolerant and substring name matches. */
export async function addTrigramIndex(knex: Knex, table: string, column: string): Promise<void> {
  await knex.raw(`CREATE INDEX ?? ON ?? USING gin (lower(??) gin_trgm_ops)`, [`${table}_${column}_trgm`, table, column]);
}

/** A btree on lower(column) with text_pattern_ops, for prefix (LIKE 'abc%') matches. */
export async function addPrefixIndex(knex: Knex, table: string, column: string): Promise<void> {
  await knex.raw(`CREATE INDEX ?? ON ?? (lower(??) text_pattern_ops)`, [`${table}_${column}_prefix`, table, column]);
}

export function weighted(parts: Array<[string, 'A' | 'B' | 'C' | 'D']>): string {
  return parts
    .map(([col, w]) => `setweight(to_tsvector('english'::regconfig, coalesce(${col}, '')), '${w}')`)
    .join(' || ');
}
