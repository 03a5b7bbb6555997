import type { Knex } from 'knex';

// Typo tolerance for article headlines. Scoring the query against every headline by trigram
// similarity took 90 ms for a misspelt common word (it is similar to 6,000 of 100,000
// headlines). Instead each typed word is corrected against the distinct words of all headlines
// (table search_headline_words, a few tens of thousands of rows with a trigram index): the
// candidates pg_trgm finds are kept only within a small edit distance, and the headlines that
// contain every corrected word are found through articles.headline_words (a tsvector of the
// headline's words, same 'simple' parsing as the vocabulary, GIN-indexed). All of it is SQL in
// the search's one statement (ranking-queries.ts).

/** Candidate corrections: how much of a word's trigrams a headline word must share. */
export const WORD_SIMILARITY = 0.3;
/** Candidates looked at per typed word. */
const CANDIDATES_PER_WORD = 8;
/** Words shorter than this are neither corrected nor required (mostly stop words). */
export const MIN_WORD_LENGTH = 3;
/** At most this many words of a query are corrected (each costs an index lookup). */
const MAX_WORDS = 6;

/** The words of a cleaned query that headline correction looks at. */
export function queryWords(plain: string): string[] {
  const words = plain.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length >= MIN_WORD_LENGTH && w.length <= 40);
  return [...new Set(words)].slice(0, MAX_WORDS);
}

/**
 * SQL answering, for each typed word, the CANDIDATES_PER_WORD headline words most similar to
 * it (at least WORD_SIMILARITY), as rows (typed, word, sml), in a statement of its own or as
 * part of a larger one (no transaction). pg_trgm's % operator, which the trigram index
 * answers, reads its threshold from a setting: the one-row subquery `cfg` sets it for the
 * statement's own transaction, and the look-up refers to cfg, so the setting is made before
 * any word is looked up. The similarity is also compared outright: the threshold holds
 * whatever the setting, and the planner, which undercosts similarity(), then reads the
 * index rather than score every word of a small vocabulary (0.06 ms instead of 0.5 ms for
 * 800 words).
 */
export function correctionCandidatesSql(knex: Knex, words: string[]): Knex.Raw {
  return knex.raw(
    `select t.typed, v.word, similarity(v.word, t.typed) as sml
       from (select set_config('pg_trgm.similarity_threshold', ?, true) as threshold) as cfg
       cross join unnest(?::text[]) as t(typed)
       cross join lateral (
         select word from search_headline_words w
         where cfg.threshold is not null and w.word % t.typed and similarity(w.word, t.typed) >= ?
         order by similarity(w.word, t.typed) desc, w.word limit ?
       ) as v`,
    [String(WORD_SIMILARITY), words, WORD_SIMILARITY, CANDIDATES_PER_WORD],
  );
}

/** Words up to this long are corrected by one edit at most, longer ones by two. */
const SHORT_WORD = 5;

/**
 * SQL answering one row: `corrected`, the query's words for headlines, each as typed when some
 * headline has it, else the headline word closest to it within one edit (a word of up to
 * SHORT_WORD letters) or two (the fewest edits, then the most similar trigrams, then the
 * word), from `candidates` (a CTE of correctionCandidatesSql's rows); null when no word was
 * corrected or a word has neither. `score`: the lowest similarity of a corrected word, the
 * score of its headlines. Edits are counted by search_edit_distance
 * (migrations/20261202000100_search_similar_rows.ts: a swap of neighbours is one edit).
 */
export function correctionSql(knex: Knex, candidates: string, words: Knex.Value): Knex.Raw {
  const allowed = `case when char_length(t.typed) <= ${SHORT_WORD} then 1 else 2 end`;
  return knex.raw(
    `select case when count(k.word) = count(*) and bool_or(k.word <> t.typed) then array_to_string(array_agg(k.word order by t.i), ' ') end as corrected,
            min(k.sml) filter (where k.word <> t.typed) as score
       from unnest(?::text[]) with ordinality as t(typed, i)
       left join lateral (
         select c.word, c.sml from ${candidates} c
         cross join lateral (select search_edit_distance(t.typed, c.word, ${allowed}) as edits) as e
         where c.typed = t.typed and (c.word = t.typed or e.edits <= ${allowed})
         order by c.word = t.typed desc, e.edits, c.sml desc, c.word collate "C"
         limit 1
       ) as k on true`,
    [words],
  );
}
