import type { Knex } from 'knex';
import { addSearchVector, weighted } from './helpers';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('events', (t) => {
    t.increments('id');
    t.string('slug', 255).notNullable();
    t.string('title', 255).notNullable();
    t.text('description').notNullable().defaultTo('');
    t.string('venue_name', 255).notNullable().defaultTo('');
    t.integer('listing_id').references('id').inTable('listings').onDelete('SET NULL');
    t.boolean('is_multiple_venues').notNullable().defaultTo(false);
    t.boolean('is_virtual_event').notNullable().defaultTo(false);
    t.string('address', 255).notNullable().defaultTo('');
    t.double('latitude');
    t.double('longitude');
    t.string('website', 500).notNullable().defaultTo('');
    t.string('schedule_type', 16).notNullable().defaultTo('single_day');
    // The schedule as entered, in Canada/Eastern wall-clock terms; occurrences are derived.
    t.date('start_date').notNullable();
    t.date('end_date');
    t.time('start_time');
    t.time('end_time');
    t.boolean('all_day').notNullable().defaultTo(false);
    t.specificType('weekdays', 'smallint[]'); // weekly: 0 Sunday … 6 Saturday
    t.specificType('categories', 'text[]').notNullable().defaultTo('{}');
    t.boolean('is_free');
    t.decimal('price_cad', 8, 2);
    t.string('organizer_name', 255).notNullable().defaultTo('');
    t.text('image_key');
    t.text('image_url'); // an external image when the source gives one
    t.jsonb('image_crop'); // hub_page_image_top/left, box and thumbnail sizes from the form
    t.string('source', 32).notNullable().defaultTo('editorial'); // editorial, city_of_toronto, member
    t.string('source_url', 1000).notNullable().defaultTo('');
    t.integer('submitted_by').references('id').inTable('profiles').onDelete('SET NULL');
    t.string('status', 16).notNullable().defaultTo('approved');
    t.text('moderation_note').notNullable().defaultTo('');
    t.boolean('can_be_bookmarked').notNullable().defaultTo(true);
    t.timestamp('date_created', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('date_updated', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['status', 'date_created']);
    t.index(['slug']);
    t.index(['listing_id']);
    t.index(['submitted_by']);
  });
  await knex.raw(
    "ALTER TABLE events ADD CONSTRAINT events_schedule_type_check CHECK (schedule_type IN ('single_day', 'day_range', 'weekly', 'irregular'))",
  );
  await knex.raw("ALTER TABLE events ADD CONSTRAINT events_status_check CHECK (status IN ('pending', 'approved', 'rejected'))");
  await knex.raw('ALTER TABLE events ADD CONSTRAINT events_dates_check CHECK (end_date IS NULL OR end_date >= start_date)');
  await addSearchVector(knex, 'events', weighted([['title', 'A'], ['venue_name', 'B'], ['description', 'C']]));

  // One row per day an event happens (a day_range or weekly schedule expands to its days), so
  // "what is on this date" is an index lookup, and ordering by start time is one too.
  await knex.schema.createTable('event_occurrences', (t) => {
    t.increments('id');
    t.integer('event_id').notNullable().references('id').inTable('events').onDelete('CASCADE');
    t.date('local_date').notNullable(); // the Canada/Eastern day
    t.timestamp('starts_at', { useTz: true }).notNullable();
    t.timestamp('ends_at', { useTz: true });
    t.boolean('all_day').notNullable().defaultTo(false);
    t.unique(['event_id', 'starts_at']);
    t.index(['local_date', 'starts_at']);
    t.index(['starts_at']);
  });
}
