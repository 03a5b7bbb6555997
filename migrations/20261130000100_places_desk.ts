import type { Knex } from 'knex';

// The places desk (issue 39, docs/places-desk.md): what staff change on a place and how it is kept.
// - listings gains the fields the desk edits that the seed never had (a price range of 1–4),
//   a note to a permanent closing (its day, `closed_on`, came with the newsroom's live cards; a
//   temporary closure is in `hours`), and
//   when the place last changed (sitemaps and the desk's "changed recently" filter read it).
// - place_revisions: every change to a place is a revision: who, when, what changed field by
//   field ({"hours": {"from": …, "to": …}}), a line a person reads ("hours Tue 9–5 → 10–6"), and
//   for a revert, the revision it undid. Staff read and revert them on the desk.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('listings', (t) => {
    t.smallint('price_range');
    t.text('closed_note').notNullable().defaultTo('');
    t.timestamp('date_modified', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('ALTER TABLE listings ADD CONSTRAINT listings_price_range_check CHECK (price_range BETWEEN 1 AND 4)');
  await knex.raw('CREATE INDEX listings_date_modified_desc ON listings (date_modified DESC, id)');

  await knex.schema.createTable('place_revisions', (t) => {
    t.bigIncrements('id');
    t.integer('listing_id').notNullable().references('id').inTable('listings').onDelete('CASCADE');
    t.integer('staff_id').references('id').inTable('profiles').onDelete('SET NULL');
    t.string('staff_email', 254).notNullable();
    // 'create', 'edit', 'close', 'reopen', 'revert', 'suggestion' (a reader's suggestion applied)
    t.string('kind', 16).notNullable();
    t.jsonb('changes').notNullable().defaultTo('{}');
    t.text('summary').notNullable().defaultTo('');
    t.bigInteger('reverts_id').references('id').inTable('place_revisions').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('CREATE INDEX place_revisions_listing ON place_revisions (listing_id, id DESC)');
  await knex.raw('CREATE INDEX place_revisions_created ON place_revisions (created_at DESC, id DESC)');
}
