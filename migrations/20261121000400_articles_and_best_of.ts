import type { Knex } from 'knex';
import { addSearchVector, addTrigramIndex, weighted } from './helpers';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('article_types', (t) => {
    t.increments('id');
    t.string('name', 100).notNullable();
    t.string('slug', 100).notNullable().unique();
    t.integer('position').notNullable().defaultTo(0);
  });

  await knex.schema.createTable('articles', (t) => {
    t.increments('id');
    t.integer('type_id').notNullable().references('id').inTable('article_types');
    t.string('name', 255).notNullable(); // the headline
    t.string('slug', 255).notNullable();
    t.string('path', 400).notNullable().unique(); // /{type}/{yyyy}/{mm}/{slug}/
    t.text('excerpt').notNullable().defaultTo('');
    t.text('body').notNullable().defaultTo(''); // paragraphs separated by blank lines
    t.string('author_name', 100).notNullable().defaultTo('');
    t.text('image_key');
    t.string('image_credit', 255).notNullable().defaultTo('');
    t.boolean('is_slideshow').notNullable().defaultTo(false);
    t.boolean('is_featured').notNullable().defaultTo(false);
    t.string('status', 16).notNullable().defaultTo('published');
    t.timestamp('date_published', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('date_created', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('date_updated', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw("ALTER TABLE articles ADD CONSTRAINT articles_status_check CHECK (status IN ('draft', 'published'))");
  await knex.raw('CREATE INDEX articles_date_published_desc ON articles (date_published DESC, id DESC)');
  await knex.raw('CREATE INDEX articles_type_date_published_desc ON articles (type_id, date_published DESC, id DESC)');
  await knex.raw('CREATE INDEX articles_featured ON articles (date_published DESC) WHERE is_featured');
  await knex.raw('CREATE INDEX articles_name ON articles (name, id)');
  await addSearchVector(knex, 'articles', weighted([['name', 'A'], ['excerpt', 'B'], ['body', 'C']]));
  await addTrigramIndex(knex, 'articles', 'name');

  await knex.schema.createTable('article_slides', (t) => {
    t.increments('id');
    t.integer('article_id').notNullable().references('id').inTable('articles').onDelete('CASCADE');
    t.integer('position').notNullable();
    t.string('title', 255).notNullable().defaultTo('');
    t.text('caption').notNullable().defaultTo('');
    t.text('image_key');
    t.integer('listing_id').references('id').inTable('listings').onDelete('SET NULL');
    t.unique(['article_id', 'position']);
  });

  await knex.schema.createTable('best_of_lists', (t) => {
    t.increments('id');
    t.string('title', 255).notNullable();
    t.string('slug', 255).notNullable().unique();
    t.text('intro').notNullable().defaultTo('');
    t.integer('article_id').references('id').inTable('articles').onDelete('SET NULL');
    t.integer('listing_type_id').references('id').inTable('listing_types').onDelete('SET NULL');
    t.integer('listing_sub_type_id').references('id').inTable('listing_sub_types').onDelete('SET NULL');
    t.integer('popularity').notNullable().defaultTo(0);
    t.text('image_key');
    t.timestamp('date_published', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('CREATE INDEX best_of_lists_popularity ON best_of_lists (popularity DESC, id)');
  await knex.raw('CREATE INDEX best_of_lists_date_published ON best_of_lists (date_published DESC, id)');
  await knex.raw('CREATE INDEX best_of_lists_title ON best_of_lists (title, id)');

  await knex.schema.createTable('best_of_list_items', (t) => {
    t.integer('list_id').notNullable().references('id').inTable('best_of_lists').onDelete('CASCADE');
    t.integer('listing_id').notNullable().references('id').inTable('listings').onDelete('CASCADE');
    t.integer('position').notNullable();
    t.text('blurb').notNullable().defaultTo('');
    t.primary(['list_id', 'listing_id']);
    t.index(['listing_id']);
  });
}
