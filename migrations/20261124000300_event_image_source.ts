import type { Knex } from 'knex';

// Imported events no longer hot-link their pictures: the original's address is kept in
// events.image_source_url (credited on the page, and what `npm run events:import-images` copies
// into our own media store), and image_credit names who made it. Rows imported before keep
// working: their outside image_url moves here and the page falls back to the placeholder until
// the copy is made.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('events', (t) => {
    t.text('image_source_url');
    t.text('image_credit');
  });
  await knex.raw(
    `UPDATE events SET image_source_url = image_url, image_url = NULL
      WHERE image_url IS NOT NULL AND image_url ~ '^https?://'`,
  );
}
