import type { AppContext } from '../../context';
import { urls } from '../../../shared/urls';
import { bestOfListKeys, placeKeys } from '../../http/surrogate-keys';
import { bestOfChangesPath } from '../articles/view-models';
import type { StaffActor } from '../staff-audit/audit-log-queries';
import type { FieldErrors } from '../../http/errors';
import { CLOSED_NOTE_MAX, closingDayLabel, isClosedOn, placeDay } from '../../../shared/place-closing';
import { closePlace, closingFormRow, reopenPlace, type ClosingInput, type ClosingResult } from './closing-queries';

// Closing and reopening a place as the desk's page and the readers' suggestions do it: the
// change (closing-queries.ts, one transaction), then every page it shows on forgotten by every
// process and the edge: the place's page, its hub and every list of places (the hub's results,
// the maps and the places API leave a closed place out), its neighbourhood, and each Best of
// list it left (the list, its change log, the Best of hub).

/** What a closing or reopening purges. */
export function closingChange(done: ClosingResult): { subject: string; paths: string[]; keys: string[] } {
  const { place } = done;
  return {
    subject: `place:${place.id}`,
    paths: [
      urls.listing(place.typeSlug, place.slug, place.id),
      ...done.lists.flatMap((l) => [urls.bestOfList(l.slug), bestOfChangesPath(l.slug)]),
      ...(done.lists.length ? ['/best-of/'] : []),
    ],
    keys: [...new Set([...placeKeys({ id: place.id, typeSlug: place.typeSlug, neighbourhoodId: place.neighbourhoodId }), ...done.lists.flatMap((l) => bestOfListKeys(l.id))])],
  };
}

type Deps = Pick<AppContext, 'db' | 'changes' | 'now' | 'config'>;

/** Closes a place and purges what shows it; a bad input is a ValidationError naming closed_on or note. */
export async function closePlaceAndPurge(ctx: Deps, actor: StaffActor, listingId: number, input: ClosingInput): Promise<ClosingResult> {
  const done = await closePlace(ctx.db, { actor, now: ctx.now(), timeZone: ctx.config.city.timeZone }, listingId, input);
  await ctx.changes.announce(closingChange(done));
  return done;
}

/** Reopens a closed place and purges what shows it. */
export async function reopenPlaceAndPurge(ctx: Deps, actor: StaffActor, listingId: number): Promise<ClosingResult> {
  const done = await reopenPlace(ctx.db, { actor, now: ctx.now(), timeZone: ctx.config.city.timeZone }, listingId);
  await ctx.changes.announce(closingChange(done));
  return done;
}

/** The closing form (templates/places-desk/close-form.njk), as `closing` in a page's view. */
export interface ClosingFormView {
  placeId: number;
  placeName: string;
  publicUrl: string;
  closedOn: string | null;
  closedNote: string;
  /** "Closed since Nov 20, 2026" or "Closing on Dec 31, 2026". */
  state: string;
  /** The Best of lists it is on (and would leave), by title. */
  lists: string[];
  today: string;
  noteMax: number;
  /** After a 303: what was done. */
  done: 'closed' | 'reopened' | null;
  errors: { fields: FieldErrors; values: Record<string, string> } | null;
}

/** The closing form's view of a place, or undefined when there is none. */
export async function closingFormView(
  ctx: Pick<AppContext, 'db' | 'now' | 'config'>,
  listingId: number,
  opts: { done?: string | null; errors?: ClosingFormView['errors'] } = {},
): Promise<ClosingFormView | undefined> {
  const row = await closingFormRow(ctx.db, listingId);
  if (!row) return undefined;
  const today = placeDay(ctx.now(), ctx.config.city.timeZone);
  const state = row.closedOn ? `${isClosedOn(row.closedOn, today) ? 'Closed since' : 'Closing on'} ${closingDayLabel(row.closedOn)}` : '';
  return {
    placeId: row.id,
    placeName: row.name,
    publicUrl: urls.listing(row.typeSlug, row.slug, row.id),
    closedOn: row.closedOn,
    closedNote: row.closedNote,
    state,
    lists: row.lists,
    today,
    noteMax: CLOSED_NOTE_MAX,
    done: opts.done === 'closed' || opts.done === 'reopened' ? opts.done : null,
    errors: opts.errors ?? null,
  };
}
