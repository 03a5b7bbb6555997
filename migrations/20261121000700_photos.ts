import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('photos', (t) => {
    t.increments('id');
    // Member photos go with their member; editorial and Instagram photos have no profile.
    t.integer('profile_id').references('id').inTable('profiles').onDelete('CASCADE');
    t.string('instagram_user', 100);
    t.integer('listing_id').references('id').inTable('listings').onDelete('CASCADE');
    t.string('title', 255).notNullable().defaultTo('');
    t.text('description').notNullable().defaultTo('');
    t.text('image_key').notNullable();
    t.integer('width').notNullable();
    t.integer('height').notNullable();
    t.timestamp('creation_date', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('CREATE INDEX photos_listing_creation ON photos (listing_id, creation_date DESC, id DESC)');
  await knex.raw('CREATE INDEX photos_profile_creation ON photos (profile_id, creation_date DESC, id DESC)');
}
