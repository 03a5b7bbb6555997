import type { Knex } from 'knex';
import { ownedByMember, timestamps } from './helpers';

// Organisers' calendar feeds (issue 28): a member adds an iCalendar URL, the site fetches it on
// a schedule, and each VEVENT becomes an event submission in the staff queue. calendar_feeds
// keeps what the fetcher needs to ask cheaply next time (ETag, Last-Modified) and what the
// member is shown (last fetch, events found, failures, why it was paused).
// calendar_feed_events ties each UID of a feed to the submission it became, with what the
// last version looked like (SEQUENCE, LAST-MODIFIED, a fingerprint of the mapped event) so a
// later fetch knows what changed, and what staff should be told (review) while it is pending.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('calendar_feeds', (t) => {
    t.increments('id');
    ownedByMember(t);
    t.string('url', 2000).notNullable();
    t.string('status', 16).notNullable().defaultTo('active');
    t.text('paused_reason');
    t.text('etag');
    t.text('last_modified');
    t.timestamp('last_fetched_at', { useTz: true });
    t.timestamp('last_success_at', { useTz: true });
    t.text('last_error');
    t.integer('consecutive_failures').notNullable().defaultTo(0);
    t.integer('events_found');
    t.timestamp('next_fetch_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    timestamps(t, knex);
    t.unique(['profile_id', 'url']);
    t.index(['status', 'next_fetch_at']);
  });
  await knex.raw("ALTER TABLE calendar_feeds ADD CONSTRAINT calendar_feeds_status_check CHECK (status IN ('active', 'paused'))");

  await knex.schema.createTable('calendar_feed_events', (t) => {
    t.increments('id');
    t.integer('feed_id').notNullable().references('id').inTable('calendar_feeds').onDelete('CASCADE');
    t.string('uid', 1000).notNullable();
    // The submission; kept when the feed goes (staff decide on it), unlinked if staff delete it.
    t.integer('event_id').references('id').inTable('events').onDelete('SET NULL');
    t.integer('sequence').notNullable().defaultTo(0);
    t.text('last_modified');
    t.string('fingerprint', 64).notNullable();
    t.string('state', 16).notNullable().defaultTo('active');
    // What staff see beside the pending event: {flags: string[], changes: {field, before, after}[]}.
    t.jsonb('review').notNullable().defaultTo('{}');
    timestamps(t, knex);
    t.unique(['feed_id', 'uid']);
    t.index(['event_id']);
  });
  await knex.raw("ALTER TABLE calendar_feed_events ADD CONSTRAINT calendar_feed_events_state_check CHECK (state IN ('active', 'cancelled', 'gone'))");
}
