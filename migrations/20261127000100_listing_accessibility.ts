import type { Knex } from 'knex';
import { ownedByMember, timestamps } from './helpers';

// Accessibility of places (issue 27). Members report what they found, one current report per
// member, place and attribute (changing it replaces it); staff verify an attribute, which
// outranks the reports. listing_accessibility is the per place and attribute summary the pages,
// the search filter and JSON-LD read: report counts kept by the accessibility app's writers in
// the same transaction as the report, and staff's verification (who, when). Attribute names are
// validated at the edges (shared/accessibility.ts), so a new attribute needs no migration.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('accessibility_reports', (t) => {
    t.increments('id');
    ownedByMember(t);
    t.integer('listing_id').notNullable().references('id').inTable('listings').onDelete('CASCADE');
    t.string('attribute', 40).notNullable();
    t.string('answer', 3).notNullable();
    t.string('note', 300).notNullable().defaultTo('');
    timestamps(t, knex);
    // Staff saw it (verified or dismissed the attribute since it was last changed); null: in the queue.
    t.timestamp('reviewed_at', { useTz: true });
    t.unique(['profile_id', 'listing_id', 'attribute']);
    t.index(['listing_id', 'attribute']);
  });
  await knex.raw(`ALTER TABLE accessibility_reports ADD CONSTRAINT accessibility_reports_answer CHECK (answer IN ('yes', 'no'))`);
  // The staff queue: reports not reviewed yet, oldest first.
  await knex.raw(`CREATE INDEX accessibility_reports_queue ON accessibility_reports (date_updated, id) WHERE reviewed_at IS NULL`);

  await knex.schema.createTable('listing_accessibility', (t) => {
    t.integer('listing_id').notNullable().references('id').inTable('listings').onDelete('CASCADE');
    t.string('attribute', 40).notNullable();
    t.integer('yes_count').notNullable().defaultTo(0);
    t.integer('no_count').notNullable().defaultTo(0);
    t.timestamp('last_reported_at', { useTz: true });
    t.boolean('verified');
    t.timestamp('verified_at', { useTz: true });
    t.integer('verified_by').references('id').inTable('profiles').onDelete('SET NULL');
    t.primary(['listing_id', 'attribute']);
  });
}
