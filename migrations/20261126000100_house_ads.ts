import type { Knex } from 'knex';
import { timestamps } from './helpers';

// House ads (staff manage them at /staff/ads/): an image from the upload pipeline, where it
// links, which slot it fills, the days it runs and its weight among the ads of its slot. Their
// impressions and clicks are counted per ad and per day, and nothing else: no visitor, cookie,
// address or agent is stored, so the counters hold no personal data.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('house_ads', (t) => {
    t.increments('id');
    t.string('name', 100).notNullable();
    t.string('slot', 20).notNullable();
    t.string('link_url', 500).notNullable();
    t.string('image_key', 255).notNullable();
    t.string('alt_text', 150).notNullable();
    t.date('starts_on').notNullable();
    t.date('ends_on').nullable();
    t.integer('weight').notNullable().defaultTo(1);
    timestamps(t, knex);
    t.index(['slot', 'starts_on']);
  });
  await knex.raw(`ALTER TABLE house_ads ADD CONSTRAINT house_ads_weight_range CHECK (weight BETWEEN 1 AND 100)`);
  await knex.raw(`ALTER TABLE house_ads ADD CONSTRAINT house_ads_dates_order CHECK (ends_on IS NULL OR ends_on >= starts_on)`);
  await knex.schema.createTable('house_ad_daily_counts', (t) => {
    t.integer('ad_id').notNullable().references('id').inTable('house_ads').onDelete('CASCADE');
    t.date('day').notNullable();
    t.integer('impressions').notNullable().defaultTo(0);
    t.integer('clicks').notNullable().defaultTo(0);
    t.primary(['ad_id', 'day']);
  });
}
