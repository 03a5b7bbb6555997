import type { Knex } from 'knex';

// Place hours (issue 39, docs/places-desk.md): several ranges a day, past midnight, holidays and
// a temporary closure, in `listings.hours` as {"weekly": {"mon": [{"opens": "11:00", "closes":
// "02:00"}], …}, "holidays": "usual" | "closed" | "hours", "holidayRanges"?: […], "closure"?: …}.
// Three derived columns let the hub's Open now filter test a minute with one containment each
// and read no JSON (shared/place-hours.ts' hoursIndex, which the app writes from then on):
// - hours_week: minutes of the week from Monday 00:00, each day's own part at [0, 10080), the
//   part past midnight at 10080 + the minute of the week it lands on;
// - hours_holiday: null for usual hours on holidays, empty for closed, else the holiday ranges
//   as minutes of the day, the part past midnight from 1440;
// - hours_closed: a temporary closure's dates, both inclusive.
// The first shape ({"mon": "9:00-17:00"}, one range a day) is rewritten here, in SQL: nothing of
// the app is imported by a migration. A value that does not read is left as it was and its
// columns null, so the place counts as hours unknown (readPlaceHours says the same).
export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE listings ADD COLUMN hours_week int4multirange, ADD COLUMN hours_holiday int4multirange, ADD COLUMN hours_closed daterange');
  await knex.raw(`
    WITH old AS (
      SELECT l.id, e.key, array_position(ARRAY['mon','tue','wed','thu','fri','sat','sun'], e.key) - 1 AS idx,
             lpad(split_part(e.value, '-', 1), 5, '0') AS opens, lpad(split_part(e.value, '-', 2), 5, '0') AS closes
        FROM listings l, jsonb_each_text(l.hours) e
       WHERE jsonb_typeof(l.hours) = 'object' AND l.hours -> 'weekly' IS NULL
         AND NOT EXISTS (
           SELECT 1 FROM jsonb_each(l.hours) x
            WHERE x.key NOT IN ('mon','tue','wed','thu','fri','sat','sun') OR jsonb_typeof(x.value) <> 'string'
               OR x.value #>> '{}' !~ '^([01]{0,1}[0-9]|2[0-3]):[0-5][0-9]-(([01]{0,1}[0-9]|2[0-3]):[0-5][0-9]|24:00)$')
    ), mins AS (
      SELECT id, key, idx, opens, closes,
             split_part(opens, ':', 1)::int * 60 + split_part(opens, ':', 2)::int AS o,
             split_part(closes, ':', 1)::int * 60 + split_part(closes, ':', 2)::int AS c0
        FROM old
    ), spans AS (
      SELECT id, key, idx, opens, closes, o, CASE WHEN c0 <= o THEN c0 + 1440 ELSE c0 END AS c FROM mins WHERE c0 <> o
    ), parts AS (
      SELECT id, int4range(idx * 1440 + o, idx * 1440 + least(c, 1440)) AS r FROM spans
      UNION ALL
      SELECT id, int4range(10080 + ((idx + 1) % 7) * 1440, 10080 + ((idx + 1) % 7) * 1440 + c - 1440) FROM spans WHERE c > 1440
    ), rebuilt AS (
      SELECT s.id,
             jsonb_build_object('weekly', jsonb_object_agg(s.key, jsonb_build_array(jsonb_build_object('opens', s.opens, 'closes', s.closes))), 'holidays', 'usual') AS hours,
             (SELECT range_agg(p.r) FROM parts p WHERE p.id = s.id) AS week
        FROM spans s GROUP BY s.id
    )
    UPDATE listings l SET hours = r.hours, hours_week = r.week
      FROM rebuilt r WHERE l.id = r.id`);
}
