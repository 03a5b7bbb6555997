import type { Knex } from 'knex';

// Best of lists that show their work (issue 27): the criteria the editors wrote for a list, the
// day an editor last visited each pick, the dated log of every change to a list with the
// editor's reason (read on the list page and in its feed), and the City's DineSafe inspection
// results, keyed by the City's establishment id so that an import of its file fills them as
// they come (listings already carry dinesafe_establishment_id).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('best_of_lists', (t) => {
    t.text('criteria').notNullable().defaultTo('');
  });
  await knex.schema.alterTable('best_of_list_items', (t) => {
    t.date('last_visited_on').nullable();
  });

  await knex.schema.createTable('best_of_list_changes', (t) => {
    t.bigIncrements('id');
    t.integer('list_id').notNullable().references('id').inTable('best_of_lists').onDelete('CASCADE');
    // The place's name is kept as it was: a removed place may later be deleted from the guide.
    t.integer('listing_id').references('id').inTable('listings').onDelete('SET NULL');
    t.string('listing_name', 255).notNullable().defaultTo('');
    t.string('kind', 20).notNullable();
    t.integer('from_position');
    t.integer('to_position');
    t.text('reason').notNullable();
    t.integer('staff_id').references('id').inTable('profiles').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`ALTER TABLE best_of_list_changes ADD CONSTRAINT best_of_list_changes_kind
    CHECK (kind IN ('added', 'removed', 'moved_up', 'moved_down', 'criteria', 'visited'))`);
  await knex.raw(`ALTER TABLE best_of_list_changes ADD CONSTRAINT best_of_list_changes_reason CHECK (length(btrim(reason)) > 0)`);
  await knex.raw('CREATE INDEX best_of_list_changes_list ON best_of_list_changes (list_id, created_at DESC, id DESC)');

  await knex.schema.createTable('dinesafe_inspections', (t) => {
    t.bigInteger('establishment_id').notNullable();
    t.date('inspected_on').notNullable();
    t.string('status', 20).notNullable();
    t.primary(['establishment_id', 'inspected_on']);
  });
  await knex.raw(`ALTER TABLE dinesafe_inspections ADD CONSTRAINT dinesafe_inspections_status CHECK (status IN ('Pass', 'Conditional Pass', 'Closed'))`);
}
