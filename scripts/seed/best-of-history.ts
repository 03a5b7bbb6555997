import type { Knex } from 'knex';
import { insertBatches } from './batch';
import { BEST_OF_LISTS } from './best-of';
import type { MemberRef } from './members';
import type { Rng } from './random';

// A believable past for every seeded Best of list: the criteria its editors wrote, the day an
// editor last visited each pick, and a dated change log (places added, removed, moved up or
// down, a visit or a clarified criterion) with reasons in an editor's voice, all between the
// list's publication and yesterday, and written to the staff audit log too, as a real edit is.
// The history is built backwards from the list as seeded, so replaying it from the first
// edition gives exactly today's order. Food-safety results are not invented: the repository's
// DineSafe data has no inspection results (scripts/seed/data/README.md), and the list page
// links to DineSafe instead.

type Kind = 'added' | 'removed' | 'moved_up' | 'moved_down' | 'criteria' | 'visited';

interface Place {
  id: number;
  name: string;
}

interface Change {
  kind: Kind;
  place: Place | null;
  from: number | null;
  to: number | null;
  reason: string;
  at?: Date;
}

const DAY = 86_400_000;

const REASONS: Record<Kind, string[]> = {
  moved_up: [
    'Went back twice this spring and {name} was better both times.',
    'The new menu at {name} earns it a higher spot.',
    'Readers kept telling us to go back; a third visit proved them right.',
    'Consistently excellent on our last three visits.',
    'The kitchen has found its feet since the opening rush.',
  ],
  moved_down: [
    'Service was slow on two recent visits. Still worth going, but not this high.',
    '{name} has a new chef and the food is not quite what it was.',
    'Others on the list got better; {name} stayed the same.',
    'Prices went up and portions went down.',
  ],
  added: [
    'Opened last year and already one of the best in the city.',
    'Three visits, three excellent meals.',
    'Our readers rate it highly, and after two visits we agree.',
    'A long-time favourite we should have included from the start.',
  ],
  removed: [
    '{name} has closed for good.',
    'Two disappointing visits in a row: off the list for now, and we will check back.',
    'Quality slipped after the change in ownership.',
    'Now only open for catering, so readers cannot walk in.',
  ],
  criteria: [
    'We now say how we weigh readers\' ratings against our own visits.',
    'Spelled out that chains are not eligible, after readers asked.',
  ],
  visited: [
    'Went back for lunch: still as good as ever.',
    'Dropped in on a busy Saturday night; the kitchen kept up.',
    'Checked in after the renovation: it still earns its spot.',
  ],
};

function criteriaFor(noun: string, rng: Rng): string {
  const open = `Every place on this list is independent (no chains) and was visited by one of our editors within the past year, paying our own way, without telling anyone who we were.`;
  const how = rng.pick([
    `We start from the ${noun} our readers rate highest, then go more than once: the food comes first, then consistency from one visit to the next, then service and value.`,
    `We read every rating our readers leave, shortlist the ${noun} that stand out, and eat at each at least twice before it makes the list. Food first, then consistency, service and value.`,
  ]);
  const change = `A place drops off when it closes, when two visits in a row disappoint, or when something better comes along. Every change is dated and explained below.`;
  return `${open}\n\n${how}\n\n${change}`;
}

const reasonFor = (rng: Rng, kind: Kind, place: Place | null) => rng.pick(REASONS[kind]).replace('{name}', place?.name ?? '');

/**
 * Works back from today's order: each step undoes one edit (a move, the last addition, a
 * removal), so the steps read forwards are edits an editor could have made, in order.
 */
function historyBackwards(rng: Rng, today: Place[], formerPicks: Place[]): { first: Place[]; changes: Change[] } {
  const state = [...today];
  const spare = [...formerPicks];
  const changes: Change[] = [];
  let added = 0;
  const steps = rng.int(3, 7);
  for (let s = 0; s < steps; s++) {
    const kind = rng.weighted<Kind>([['moved_up', 3], ['moved_down', 2], ['added', added < 2 && state.length > 6 ? 2 : 0], ['removed', spare.length ? 1.5 : 0]]);
    if (kind === 'moved_up' && state.length > 1) {
      // It is at i now and came from i + 1.
      const i = rng.int(0, state.length - 2);
      const place = state[i];
      [state[i], state[i + 1]] = [state[i + 1], state[i]];
      changes.push({ kind, place, from: i + 2, to: i + 1, reason: reasonFor(rng, kind, place) });
    } else if (kind === 'moved_down' && state.length > 1) {
      const i = rng.int(1, state.length - 1);
      const place = state[i];
      [state[i - 1], state[i]] = [state[i], state[i - 1]];
      changes.push({ kind, place, from: i, to: i + 1, reason: reasonFor(rng, kind, place) });
    } else if (kind === 'added') {
      // Editors add at the bottom: only the last pick can be the latest addition.
      const place = state.pop()!;
      added += 1;
      changes.push({ kind, place, from: null, to: state.length + 1, reason: reasonFor(rng, kind, place) });
    } else if (kind === 'removed') {
      const place = spare.pop()!;
      const at = rng.int(0, state.length);
      state.splice(at, 0, place);
      changes.push({ kind, place, from: at + 1, to: null, reason: reasonFor(rng, kind, place) });
    }
  }
  return { first: state, changes: changes.reverse() };
}

export async function seedBestOfHistory(db: Knex, opts: { rng: Rng; now: Date; staff: MemberRef }): Promise<{ changes: number }> {
  const nouns = new Map(BEST_OF_LISTS.map((d) => [d.title, d.noun]));
  const lists: Array<{ id: number; title: string; slug: string; date_published: Date | string; listing_type_id: number | null; listing_sub_type_id: number | null }> = await db('best_of_lists')
    .orderBy('id')
    .select('id', 'title', 'slug', 'date_published', 'listing_type_id', 'listing_sub_type_id');
  const changeRows: Array<Record<string, unknown>> = [];
  const auditRows: Array<Record<string, unknown>> = [];
  for (const list of lists) {
    const rng = opts.rng.fork(`best-of-history:${list.slug}`);
    const today: Place[] = (await db('best_of_list_items as i').join('listings as l', 'l.id', 'i.listing_id').where('i.list_id', list.id).orderBy([{ column: 'i.position' }, { column: 'i.listing_id' }]).select('l.id', 'l.name')).map((r: Place) => ({ id: Number(r.id), name: r.name }));
    if (!today.length) continue;
    // Places that could have been on the list once: its kind of place, independent, not on it now.
    const former = list.listing_sub_type_id || list.listing_type_id
      ? (await db('listings')
        .where(list.listing_sub_type_id ? { sub_type_id: list.listing_sub_type_id } : { type_id: list.listing_type_id })
        .whereNotIn('id', today.map((p) => p.id))
        .orderBy([{ column: 'smart_review_score', order: 'desc' }, { column: 'id' }])
        .limit(2)
        .select('id', 'name')).map((r: Place) => ({ id: Number(r.id), name: r.name }))
      : [];
    const published = new Date(list.date_published).getTime();
    const end = opts.now.getTime() - DAY;
    const start = published + 7 * DAY;
    await db('best_of_lists').where('id', list.id).update({ criteria: criteriaFor(nouns.get(list.title) ?? 'places', rng) });

    const { changes } = end - start > 30 * DAY ? historyBackwards(rng, today, former) : { changes: [] as Change[] };
    if (changes.length && rng.chance(0.4)) changes.splice(rng.int(0, changes.length), 0, { kind: 'criteria', place: null, from: null, to: null, reason: reasonFor(rng, 'criteria', null) });
    // Dates in order, spread between publication and yesterday.
    const times = changes.map(() => start + rng.float() * (end - start)).sort((a, b) => a - b);
    changes.forEach((c, i) => (c.at = new Date(times[i])));

    // Ranks 1..n, as the editor's edits keep them; each pick's last visit after it joined.
    const joined = new Map(changes.filter((c) => c.kind === 'added').map((c) => [c.place!.id, c.at!.getTime()]));
    for (const [i, place] of today.entries()) {
      const from = Math.max(joined.get(place.id) ?? published, opts.now.getTime() - 330 * DAY);
      const visited = from < end ? new Date(from + rng.float() * (end - from)) : null;
      await db('best_of_list_items').where({ list_id: list.id, listing_id: place.id }).update({ position: i + 1, last_visited_on: visited ? visited.toISOString().slice(0, 10) : null });
      // The latest visit or two are in the log, as an editor records them.
      if (visited && i < 2 && end - visited.getTime() < 90 * DAY) {
        changes.push({ kind: 'visited', place, from: null, to: null, reason: reasonFor(rng, 'visited', place), at: visited });
      }
    }
    for (const c of changes) {
      changeRows.push({ list_id: list.id, listing_id: c.place?.id ?? null, listing_name: c.place?.name ?? '', kind: c.kind, from_position: c.from, to_position: c.to, reason: c.reason, staff_id: opts.staff.id, created_at: c.at });
      auditRows.push({
        staff_id: opts.staff.id,
        staff_email: opts.staff.email,
        action: `best_of.${c.kind}`,
        subject_type: 'best_of_list',
        subject_id: list.id,
        note: c.reason,
        detail: JSON.stringify({ list: list.slug, ...(c.place ? { listing_id: c.place.id, listing_name: c.place.name } : {}), ...(c.from !== null ? { from_position: c.from } : {}), ...(c.to !== null ? { to_position: c.to } : {}) }),
        created_at: c.at,
      });
    }
  }
  await insertBatches(db, 'best_of_list_changes', changeRows);
  await insertBatches(db, 'staff_audit_log', auditRows);
  return { changes: changeRows.length };
}
