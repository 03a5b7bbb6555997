import type { Knex } from 'knex';
import { addSearchVector, weighted } from './helpers';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('contests', (t) => {
    t.increments('id');
    t.string('title', 255).notNullable();
    t.string('name', 255).notNullable().unique(); // the slug in its URL
    t.text('description').notNullable().defaultTo('');
    t.text('prize').notNullable().defaultTo('');
    t.text('rules').notNullable().defaultTo('');
    t.text('image_key');
    t.timestamp('start_date', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('end_date', { useTz: true }).notNullable();
    t.timestamp('date_published', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('CREATE INDEX contests_date_published_desc ON contests (date_published DESC, id DESC)');
  await knex.raw('CREATE INDEX contests_end_date ON contests (end_date DESC, id DESC)');
  await addSearchVector(knex, 'contests', weighted([['title', 'A'], ['description', 'C']]));

  await knex.schema.createTable('video_categories', (t) => {
    t.increments('id');
    t.string('name', 100).notNullable();
    t.string('slug', 100).notNullable().unique();
  });
  await knex.schema.createTable('videos', (t) => {
    t.increments('id');
    t.integer('category_id').references('id').inTable('video_categories').onDelete('SET NULL');
    t.string('title', 255).notNullable();
    t.string('slug', 255).notNullable().unique();
    t.text('description').notNullable().defaultTo('');
    t.string('youtube_code', 32).notNullable();
    t.text('image_key');
    t.integer('duration_seconds');
    t.timestamp('date_published', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('CREATE INDEX videos_date_published_desc ON videos (date_published DESC, id DESC)');
  await knex.raw('CREATE INDEX videos_category_date_published ON videos (category_id, date_published DESC, id DESC)');
  await knex.raw('CREATE INDEX videos_title ON videos (title, id)');
  await addSearchVector(knex, 'videos', weighted([['title', 'A'], ['description', 'C']]));
}
