import type { Knex } from 'knex';

// A photo chosen as an entry of a photo challenge. Entries are photos like any other (member
// or Instagram credit), so they go with their challenge and their author alike.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('photos', (t) => {
    t.integer('challenge_id').references('id').inTable('photo_challenges').onDelete('CASCADE');
  });
  await knex.raw('CREATE INDEX photos_challenge_creation ON photos (challenge_id, creation_date DESC, id DESC) WHERE challenge_id IS NOT NULL');
}
