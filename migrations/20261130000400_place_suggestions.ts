import type { Knex } from 'knex';

// Readers' suggested edits to a place (issue 39, "Readers help"): a member or a guest says a
// place closed, moved, or has other hours, phone, website or name. Nothing here is shown
// publicly; staff apply (through the desk's change, which writes the revision) or dismiss.
// - member_id goes with the member's account (ON DELETE CASCADE); a guest row has none, and
//   keeps guest_key, a keyed hash of the address (never the raw IP), so "3 closed reports
//   from different people" counts a guest once per address; guest_email is only there to tell
//   them when theirs is applied.
// - value is the suggested value in the desk's field shape (hours as PlaceHours, moved as
//   {address}, closed as {closed_on}); base is the field's value when the suggestion was made:
//   applying is refused when the place's current value differs from it.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('place_suggestions', (t) => {
    t.bigIncrements('id');
    t.integer('listing_id').notNullable().references('id').inTable('listings').onDelete('CASCADE');
    t.integer('member_id').references('id').inTable('profiles').onDelete('CASCADE');
    t.string('guest_key', 64);
    t.string('guest_email', 254);
    t.string('kind', 16).notNullable();
    t.jsonb('value');
    t.jsonb('base');
    t.text('note').notNullable().defaultTo('');
    t.string('status', 16).notNullable().defaultTo('pending');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('decided_at', { useTz: true });
    t.integer('decided_by').references('id').inTable('profiles').onDelete('SET NULL');
  });
  await knex.raw("ALTER TABLE place_suggestions ADD CONSTRAINT place_suggestions_kind_check CHECK (kind IN ('closed', 'moved', 'hours', 'phone', 'website', 'name'))");
  await knex.raw("ALTER TABLE place_suggestions ADD CONSTRAINT place_suggestions_status_check CHECK (status IN ('pending', 'applied', 'dismissed'))");
  // A suggestion is a member's or a guest's: exactly one of the two says who.
  await knex.raw('ALTER TABLE place_suggestions ADD CONSTRAINT place_suggestions_author_check CHECK ((member_id IS NULL) <> (guest_key IS NULL))');
  await knex.raw('CREATE INDEX place_suggestions_status_listing ON place_suggestions (status, listing_id)');
  // The export and the purge read a member's rows.
  await knex.raw('CREATE INDEX place_suggestions_member ON place_suggestions (member_id) WHERE member_id IS NOT NULL');
}
