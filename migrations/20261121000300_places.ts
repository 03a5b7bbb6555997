import type { Knex } from 'knex';
import { addPrefixIndex, addSearchVector, addTrigramIndex, weighted } from './helpers';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('neighbourhoods', (t) => {
    t.integer('id').primary(); // the City's neighbourhood number (1–174, 158 in use)
    t.string('name', 100).notNullable();
    t.string('slug', 100).notNullable().unique();
    t.text('blurb').notNullable().defaultTo('');
    t.text('image_key');
    t.jsonb('boundaries').notNullable(); // GeoJSON MultiPolygon, longitude first
    t.double('label_latitude').notNullable();
    t.double('label_longitude').notNullable();
    t.double('min_latitude').notNullable();
    t.double('min_longitude').notNullable();
    t.double('max_latitude').notNullable();
    t.double('max_longitude').notNullable();
    t.jsonb('census').notNullable().defaultTo('{}'); // 2021 Census indicators
  });
  await addPrefixIndex(knex, 'neighbourhoods', 'name');

  await knex.schema.createTable('subway_stops', (t) => {
    t.increments('id');
    t.string('slug', 100).notNullable().unique();
    t.string('name', 100).notNullable();
    t.string('lines', 50).notNullable(); // "1" or "1;2"
    t.string('line_names', 255).notNullable().defaultTo('');
    t.double('latitude').notNullable();
    t.double('longitude').notNullable();
    t.string('address', 255).notNullable().defaultTo('');
    t.integer('neighbourhood_id').references('id').inTable('neighbourhoods').onDelete('SET NULL');
  });

  await knex.schema.createTable('listing_types', (t) => {
    t.increments('id');
    t.string('name', 100).notNullable();
    t.string('slug', 100).notNullable().unique();
    t.integer('position').notNullable().defaultTo(0);
  });
  await knex.schema.createTable('listing_sub_types', (t) => {
    t.increments('id');
    t.integer('type_id').notNullable().references('id').inTable('listing_types').onDelete('CASCADE');
    t.string('name', 100).notNullable();
    t.string('slug', 100).notNullable();
    t.integer('position').notNullable().defaultTo(0);
    t.unique(['type_id', 'slug']);
  });
  await knex.schema.createTable('features', (t) => {
    t.increments('id');
    t.string('name', 100).notNullable();
    t.string('slug', 100).notNullable().unique();
  });
  await knex.schema.createTable('services', (t) => {
    t.increments('id');
    t.string('name', 100).notNullable();
    t.string('slug', 100).notNullable().unique();
  });

  await knex.schema.createTable('listings', (t) => {
    t.increments('id');
    t.string('name', 255).notNullable();
    t.string('slug', 255).notNullable();
    t.integer('type_id').notNullable().references('id').inTable('listing_types');
    t.integer('sub_type_id').references('id').inTable('listing_sub_types').onDelete('SET NULL');
    t.integer('neighbourhood_id').references('id').inTable('neighbourhoods').onDelete('SET NULL');
    t.integer('nearest_subway_stop_id').references('id').inTable('subway_stops').onDelete('SET NULL');
    t.integer('nearest_subway_stop_distance_m');
    t.string('address', 255).notNullable().defaultTo('');
    t.string('phone', 50).notNullable().defaultTo('');
    t.string('website', 500).notNullable().defaultTo('');
    t.double('latitude');
    t.double('longitude');
    t.text('description').notNullable().defaultTo('');
    t.jsonb('hours'); // {"mon": "11:00-22:00", ...} when known
    t.text('image_key');
    t.bigInteger('dinesafe_establishment_id').unique();
    // Denormalised from ratings and favourites so that sorting by them uses an index.
    t.decimal('rating', 3, 2);
    t.integer('rating_count').notNullable().defaultTo(0);
    t.integer('favourite_count').notNullable().defaultTo(0);
    t.double('smart_review_score').notNullable().defaultTo(0);
    t.boolean('appears_in_best_of_lists').notNullable().defaultTo(false);
    t.timestamp('date_published', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('date_created', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['type_id', 'name']);
    t.index(['sub_type_id', 'name']);
    t.index(['neighbourhood_id', 'name']);
    t.index(['nearest_subway_stop_id']);
    t.index(['latitude', 'longitude']);
    t.index(['name']);
    t.index(['slug']);
  });
  await knex.raw('CREATE INDEX listings_rating_desc ON listings (rating DESC NULLS LAST, id)');
  await knex.raw('CREATE INDEX listings_favourite_count_desc ON listings (favourite_count DESC, id)');
  await knex.raw('CREATE INDEX listings_date_published_desc ON listings (date_published DESC, id)');
  await knex.raw('CREATE INDEX listings_smart_review_desc ON listings (smart_review_score DESC, id)');
  await knex.raw('CREATE INDEX listings_best_of ON listings (appears_in_best_of_lists) WHERE appears_in_best_of_lists');
  await addSearchVector(knex, 'listings', weighted([['name', 'A'], ['address', 'B'], ['description', 'C']]));
  await addTrigramIndex(knex, 'listings', 'name');
  await addPrefixIndex(knex, 'listings', 'name');

  await knex.schema.createTable('listing_features', (t) => {
    t.integer('listing_id').notNullable().references('id').inTable('listings').onDelete('CASCADE');
    t.integer('feature_id').notNullable().references('id').inTable('features').onDelete('CASCADE');
    t.primary(['listing_id', 'feature_id']);
    t.index(['feature_id', 'listing_id']);
  });
  await knex.schema.createTable('listing_services', (t) => {
    t.integer('listing_id').notNullable().references('id').inTable('listings').onDelete('CASCADE');
    t.integer('service_id').notNullable().references('id').inTable('services').onDelete('CASCADE');
    t.primary(['listing_id', 'service_id']);
    t.index(['service_id', 'listing_id']);
  });
}
