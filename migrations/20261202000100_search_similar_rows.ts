import type { Knex } from 'knex';

// Site search's typo paths (server/apps/search/ranking-queries.ts) in the search's one statement
// (issue 41): they were a transaction of their own (BEGIN, the trigram threshold, the similar
// names, COMMIT), a query for corrected headlines, and a choice of correction in JavaScript
// between statements.
// - search_similar_rows: the rows of `query` (id, score, date), the names most similar to the
//   reader's words ($1), run with pg_trgm's word similarity threshold set for it (the <%
//   operator, which the trigram index answers, reads it from a setting), planned for these
//   words (a generic plan does not know them) and the setting put back after;
// - search_edit_distance: optimal string alignment distance (insertions, deletions,
//   substitutions, swaps of two neighbours), max + 1 when it is past `max`. fuzzystrmatch's
//   levenshtein counts a swap as two edits (and PGlite would have to load it), so the
//   correction of a headline word is chosen in plpgsql, as typo-queries.ts chose it in
//   JavaScript. Words are short: the common prefix and suffix are dropped first, and what is
//   left of a typo is a few letters.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE FUNCTION search_similar_rows(query text, plain text, at timestamptz, threshold real, wanted integer)
    RETURNS TABLE (id integer, score real, date timestamptz)
    LANGUAGE plpgsql VOLATILE ROWS 50 AS $fn$
    DECLARE was text := current_setting('pg_trgm.word_similarity_threshold', true);
    BEGIN
      PERFORM set_config('pg_trgm.word_similarity_threshold', threshold::text, true);
      RETURN QUERY EXECUTE query USING plain, at, wanted;
      PERFORM set_config('pg_trgm.word_similarity_threshold', was, true);
    END
    $fn$`);
  await knex.raw(`
    CREATE FUNCTION search_edit_distance(a text, b text, max integer) RETURNS integer
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $fn$
    DECLARE
      la integer := char_length(a);
      lb integer := char_length(b);
      p integer := 0;
      d integer;
      best integer;
      ca text;
      cb text;
      prev2 integer[];
      prev integer[];
      cur integer[];
    BEGIN
      IF abs(la - lb) > max THEN RETURN max + 1; END IF;
      WHILE p < la AND p < lb AND substr(a, p + 1, 1) = substr(b, p + 1, 1) LOOP p := p + 1; END LOOP;
      a := substr(a, p + 1);
      b := substr(b, p + 1);
      la := la - p;
      lb := lb - p;
      WHILE la > 0 AND lb > 0 AND substr(a, la, 1) = substr(b, lb, 1) LOOP la := la - 1; lb := lb - 1; END LOOP;
      IF la = 0 OR lb = 0 THEN RETURN least(la + lb, max + 1); END IF;
      -- Rows of the distance table, 1-based: prev[j + 1] is the distance to b's first j letters.
      prev := array(SELECT generate_series(0, lb));
      FOR i IN 1..la LOOP
        ca := substr(a, i, 1);
        cur := ARRAY[i];
        best := i;
        FOR j IN 1..lb LOOP
          cb := substr(b, j, 1);
          d := least(prev[j + 1] + 1, cur[j] + 1, prev[j] + CASE WHEN ca = cb THEN 0 ELSE 1 END);
          IF i > 1 AND j > 1 AND ca = substr(b, j - 1, 1) AND substr(a, i - 1, 1) = cb THEN d := least(d, prev2[j - 1] + 1); END IF;
          cur := cur || d;
          best := least(best, d);
        END LOOP;
        IF best > max THEN RETURN max + 1; END IF;
        prev2 := prev;
        prev := cur;
      END LOOP;
      RETURN least(prev[lb + 1], max + 1);
    END
    $fn$`);
}
