import type { Knex } from 'knex';

// Photo Challenges (FEATURE_PHOTO_CHALLENGES): a theme readers shoot for a few weeks and post
// with its hashtag; editors pick the entries shown on the challenge page (photos.challenge_id,
// the next migration). `name` is the slug in its URL, as contests name theirs.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('photo_challenges', (t) => {
    t.increments('id');
    t.string('title', 255).notNullable();
    t.string('name', 255).notNullable().unique();
    t.text('description').notNullable().defaultTo('');
    t.string('hashtag', 100).notNullable();
    t.text('image_key');
    t.timestamp('start_date', { useTz: true }).notNullable();
    t.timestamp('end_date', { useTz: true }).notNullable();
    t.timestamp('date_published', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('CREATE INDEX photo_challenges_end_date ON photo_challenges (end_date DESC, id DESC)');
}
