import type { Knex } from 'knex';

// Site search's typo tolerance for article headlines (server/apps/search/typo-queries.ts):
// - search_headline_words: the distinct words of all headlines, with a trigram index, so that a
//   misspelt word is corrected against a few thousand words instead of scored against every
//   headline (PostgreSQL's documented pg_trgm + full-text pairing). Triggers keep it current
//   as articles are inserted or renamed; a word whose last headline went away stays
//   (harmless: the corrected search then finds nothing, as the typed one did).
// - articles.headline_words: the headline's words as a stored tsvector with a GIN index. Its
//   statistics tell the planner how rare a word is: a LIKE on the trigram index was estimated
//   at 1,200 rows whatever the word, and for a word in 7 headlines the planner walked all
//   100,000 by date (2.3 s); with this column it reads the 7 (0.3 ms).
const WORDS_OF = (rows: string) =>
  `select distinct word from ${rows}, unnest(tsvector_to_array(to_tsvector('simple', name))) as word where word ~ '^[[:alnum:]]{3,40}$'`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE articles ADD COLUMN headline_words tsvector GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, coalesce(name, ''))) STORED`);
  await knex.raw('CREATE INDEX articles_headline_words ON articles USING gin (headline_words)');
  await knex.raw('CREATE TABLE search_headline_words (word text PRIMARY KEY)');
  await knex.raw('CREATE INDEX search_headline_words_trgm ON search_headline_words USING gin (word gin_trgm_ops)');
  await knex.raw(`INSERT INTO search_headline_words ${WORDS_OF('articles')}`);
  // Statement-level for inserts (a seed inserts thousands of rows at once: one insert per statement).
  await knex.raw(`CREATE FUNCTION search_headline_words_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_headline_words ${WORDS_OF('new_rows')} ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$`);
  await knex.raw(`CREATE TRIGGER articles_headline_words_insert AFTER INSERT ON articles
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_headline_words_add()`);
  // Row-level for renames: transition tables cannot name columns, and most updates leave the name alone.
  await knex.raw(`CREATE FUNCTION search_headline_words_rename() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_headline_words
    SELECT DISTINCT word FROM unnest(tsvector_to_array(to_tsvector('simple', NEW.name))) AS word
    WHERE word ~ '^[[:alnum:]]{3,40}$' ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$`);
  await knex.raw(`CREATE TRIGGER articles_headline_words_rename AFTER UPDATE OF name ON articles
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION search_headline_words_rename()`);
}
