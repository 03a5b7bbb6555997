import type { Knex } from 'knex';

// The newsroom (issue 37): staff roles; stories written in the browser as the editor's JSON
// (articles.doc) with their rendered HTML kept beside it; the five statuses, scheduling and
// scheduled unpublishing; a working copy of a published story's unpublished changes; each
// field's last change (so two editors' saves merge by field); revisions of every field; old
// paths that answer with a 301; preview links; who has a story open. Also a place's closing
// date, which live cards in stories show ("Closed") and the checks refuse to publish.

// Today's bodies (paragraphs between blank lines) as documents and HTML: the same text, each
// paragraph escaped, as the template printed it (trimmed of what JavaScript's trim() takes). Written here in SQL, as a frozen snapshot of
// the renderer's paragraph rule (server/apps/articles/story-render.ts).
export const PARAGRAPH_BODIES_TO_DOCS_SQL = `
    UPDATE articles a SET
      doc = jsonb_build_object('type', 'doc', 'content', coalesce(p.nodes, '[{"type":"paragraph"}]'::jsonb)),
      body_html = coalesce(p.html, '')
    FROM (
      SELECT a2.id,
        jsonb_agg(jsonb_build_object('type', 'paragraph', 'content', jsonb_build_array(jsonb_build_object('type', 'text', 'text', para))) ORDER BY n) AS nodes,
        string_agg('<p>' || replace(replace(replace(replace(replace(para, '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), '"', '&quot;'), '''', '&#39;') || '</p>', E'\\n' ORDER BY n) AS html
      FROM articles a2,
        LATERAL (SELECT regexp_replace(x, E'^[\\t\\n\\u000b\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]+|[\\t\\n\\u000b\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]+$', '', 'g') AS para, n FROM regexp_split_to_table(a2.body, E'\\n{2,}') WITH ORDINALITY AS s(x, n)) parts
      WHERE parts.para <> '' AND a2.doc IS NULL
      GROUP BY a2.id
    ) p
    WHERE p.id = a.id AND a.doc IS NULL`;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('profiles', (t) => {
    t.string('newsroom_role', 16);
  });
  await knex.raw(`ALTER TABLE profiles ADD CONSTRAINT profiles_newsroom_role_check
    CHECK (newsroom_role IN ('contributor', 'writer', 'editor', 'administrator'))`);

  await knex.raw('ALTER TABLE articles DROP CONSTRAINT articles_status_check');
  await knex.raw(`ALTER TABLE articles ADD CONSTRAINT articles_status_check
    CHECK (status IN ('draft', 'review', 'scheduled', 'published', 'unpublished'))`);
  await knex.schema.alterTable('articles', (t) => {
    t.jsonb('doc');
    t.text('body_html');
    t.integer('version').notNullable().defaultTo(1);
    // field -> the version that last changed it: a save from an older version merges unless it changes a field changed since.
    t.jsonb('field_versions').notNullable().defaultTo('{}');
    // A published story's saved but not yet published changes (field -> value), applied by "Update".
    t.jsonb('pending').notNullable().defaultTo('{}');
    t.integer('author_id').references('id').inTable('profiles').onDelete('SET NULL');
    t.string('image_alt', 400).notNullable().defaultTo('');
    t.string('seo_title', 255).notNullable().defaultTo('');
    t.string('seo_description', 400).notNullable().defaultTo('');
    t.string('canonical_url', 1000).notNullable().defaultTo('');
    t.text('social_image_key');
    t.boolean('is_sponsored').notNullable().defaultTo(false);
    t.string('sponsor_name', 255).notNullable().defaultTo('');
    t.timestamp('scheduled_at', { useTz: true });
    t.timestamp('unpublish_at', { useTz: true });
    t.integer('published_late_minutes');
    t.timestamp('last_revision_at', { useTz: true });
    t.string('wordpress_guid', 500).unique();
  });
  await knex.raw('CREATE INDEX articles_newsroom_list ON articles (date_updated DESC, id DESC)');
  await knex.raw('CREATE INDEX articles_scheduled ON articles (scheduled_at) WHERE status = \'scheduled\'');
  await knex.raw('CREATE INDEX articles_unpublish_at ON articles (unpublish_at) WHERE unpublish_at IS NOT NULL');

  await knex.raw(PARAGRAPH_BODIES_TO_DOCS_SQL);
  await knex.raw(`UPDATE articles SET doc = '{"type":"doc","content":[{"type":"paragraph"}]}'::jsonb, body_html = '' WHERE doc IS NULL`);

  await knex.schema.createTable('article_revisions', (t) => {
    t.bigIncrements('id');
    t.integer('article_id').notNullable().references('id').inTable('articles').onDelete('CASCADE');
    t.integer('version').notNullable();
    // first_save, publish, unpublish, explicit, interval, restore, import
    t.string('reason', 16).notNullable();
    t.string('status', 16).notNullable();
    // Every field a story has (shared/newsroom.ts STORY_FIELDS) as it was.
    t.jsonb('fields').notNullable();
    t.text('body_html').notNullable().defaultTo('');
    t.integer('author_id').references('id').inTable('profiles').onDelete('SET NULL');
    t.string('author_name', 100).notNullable().defaultTo('');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('CREATE INDEX article_revisions_article ON article_revisions (article_id, id DESC)');

  // Every path a published story has had: the old ones answer with a 301 to the story's current path.
  await knex.schema.createTable('article_path_history', (t) => {
    t.string('path', 1000).primary();
    t.integer('article_id').notNullable().references('id').inTable('articles').onDelete('CASCADE');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('CREATE INDEX article_path_history_article ON article_path_history (article_id)');

  await knex.schema.createTable('story_previews', (t) => {
    t.increments('id');
    t.integer('article_id').notNullable().references('id').inTable('articles').onDelete('CASCADE');
    t.string('token_hash', 64).notNullable().unique(); // sha256 of the token in the link
    t.integer('created_by').references('id').inTable('profiles').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('revoked_at', { useTz: true });
  });
  await knex.raw('CREATE INDEX story_previews_article ON story_previews (article_id)');

  await knex.schema.createTable('story_presence', (t) => {
    t.integer('article_id').notNullable().references('id').inTable('articles').onDelete('CASCADE');
    t.integer('member_id').notNullable().references('id').inTable('profiles').onDelete('CASCADE');
    t.timestamp('since', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('seen_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['article_id', 'member_id']);
  });

  await knex.schema.alterTable('listings', (t) => {
    t.date('closed_on');
  });
}
