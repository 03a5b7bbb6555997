import type { Knex } from 'knex';
import type { AppContext } from '../../context';
import type { Db } from '../../db';
import { NotFoundError, ValidationError } from '../../http/errors';
import { placeKeys, surrogateKeys } from '../../http/surrogate-keys';
import { slugify } from '../../../shared/format/text';
import { describeHoursChange } from '../../../shared/place-hours-form';
import type { PlaceHours } from '../../../shared/place-hours';
import { PLACE_FIELDS, PRICE_RANGES, stableJson, type PlaceChanges, type PlaceField } from '../../../shared/places-desk';
import { urls } from '../../../shared/urls';
import { pointOfAddress } from '../geocoder/queries';
import { createLinkChecker, LINK_CHECK_LIMITS } from '../newsroom/link-check';
import { recordStaffAction, type StaffActor } from '../staff-audit/audit-log-queries';
import { locatePlace } from './location-queries';
import { deskPlace, insertPlace, namesOf, setPlaceFeatures, setPlaceServices, subTypeParent, updatePlace, type DeskPlace, type PlaceColumns } from './queries';
import { placeRevision, recordPlaceRevision, valuesSinceChanged, type FieldChange } from './revision-queries';

// Changing a place (issue 39): every change, whoever makes it (staff on the desk's form, a
// reader's suggestion applied, a revert), is one transaction that locks the place, refuses a
// change to a field that moved since the change was prepared (`expected`), writes the listing
// and its date_modified, one place revision with each changed field's before and after and a
// line a person reads, and the staff audit entry. Nothing changed, nothing written. The
// neighbourhood and the nearest station follow the point and the slug follows the name, so a
// place's public address can change: its old one answers a 301 (listings' detail page).

export interface ChangeActor {
  actor: StaffActor;
  now: Date;
  /** The page caches to purge after the commit; without it the caller purges (`purge` of the result). */
  changes?: AppContext['changes'];
}

export interface ChangeOptions {
  kind?: 'edit' | 'suggestion' | 'revert';
  /** The values the change was prepared against: a field whose value differs is refused. */
  expected?: PlaceChanges;
  revertsId?: number;
  /**
   * The revision the editor's form was made from (the desk's form carries it): a field someone
   * changed since is left as they made it when the form left it as it was, and refused, naming
   * it, when the form changed it too (PlaceEditConflict). Two editors on one place lose nothing.
   */
  sinceRevision?: number;
}

/** The form changed a field someone else changed since it was made: the editor decides. */
export class PlaceEditConflict extends ValidationError {}

export interface PurgeNotice {
  subject: string;
  paths: string[];
  keys: string[];
}

export interface ChangeResult {
  revisionId: number | null;
  changed: PlaceField[];
  purge: PurgeNotice | null;
}

const FIELD_WORDS: Record<PlaceField, string> = {
  name: 'name', type_id: 'type', sub_type_id: 'sub-type', address: 'address', latitude: 'latitude', longitude: 'longitude',
  phone: 'phone', website: 'website', price_range: 'price range', hours: 'hours', features: 'features', services: 'services',
};

const sorted = (ids: number[]) => [...new Set(ids)].sort((a, b) => a - b);

/** A field's value in a comparable, storable form (id lists sorted, absent as null). */
function norm(field: PlaceField, value: unknown): unknown {
  if (field === 'features' || field === 'services') return sorted((value as number[] | undefined) ?? []);
  return value === undefined ? null : value;
}

const same = (field: PlaceField, a: unknown, b: unknown) => stableJson(norm(field, a)) === stableJson(norm(field, b));

function currentValue(place: DeskPlace, field: PlaceField): unknown {
  return norm(field, place[field]);
}

/** ": it is now X" for a value a line can show (a name, a phone), nothing for hours or lists. */
const nowWords = (field: PlaceField, v: unknown) => (field.endsWith('_id') ? '' : typeof v === 'string' || typeof v === 'number' ? `: it is now ${v === '' ? 'empty' : String(v)}` : v === null ? ': it is now empty' : '');

const priceWords = (v: unknown) => (v === null || v === undefined ? 'none' : (PRICE_RANGES.find((p) => p.value === v)?.label ?? String(v)));
const text = (v: unknown) => (v === null || v === undefined || v === '' ? 'none' : String(v));

/** Refuses what no writer may store (the form's schema says it first; a suggestion or a revert arrives here too). */
async function checkChanges(trx: Knex.Transaction, changes: PlaceChanges, after: { type_id: number; sub_type_id: number | null }): Promise<void> {
  if (changes.name !== undefined && !changes.name.trim()) throw ValidationError.field('name', 'This field may not be blank.');
  if (changes.type_id !== undefined && !(await namesOf(trx, 'listing_types', [changes.type_id])).size) throw ValidationError.field('type_id', 'Select a valid type.');
  if (after.sub_type_id !== null && (changes.sub_type_id !== undefined || changes.type_id !== undefined)) {
    const parent = await subTypeParent(trx, after.sub_type_id);
    if (parent === undefined) throw ValidationError.field('sub_type_id', 'Select a valid sub-type.');
    if (parent !== after.type_id) throw ValidationError.field('sub_type_id', 'That sub-type is not one of the type\'s.');
  }
  if (changes.price_range != null && !PRICE_RANGES.some((p) => p.value === changes.price_range)) throw ValidationError.field('price_range', 'Select a price range from $ to $$$$.');
  for (const [field, table] of [['features', 'features'], ['services', 'services']] as const) {
    const ids = changes[field];
    if (ids && (await namesOf(trx, table, sorted(ids))).size !== sorted(ids).length) throw ValidationError.field(field, `Select valid ${field}.`);
  }
}

/** The revision line: "hours Tue 9am–5pm → 10am–6pm; phone 416-555-0100 → 416-555-0199". */
async function summaryOf(trx: Knex.Transaction, diff: Record<string, FieldChange>, place: Pick<DeskPlace, 'latitude' | 'longitude'>): Promise<string> {
  const parts: string[] = [];
  const typeNames = await namesOf(trx, 'listing_types', [diff.type_id?.from, diff.type_id?.to].filter((v): v is number => typeof v === 'number'));
  const subNames = await namesOf(trx, 'listing_sub_types', [diff.sub_type_id?.from, diff.sub_type_id?.to].filter((v): v is number => typeof v === 'number'));
  for (const field of PLACE_FIELDS) {
    const c = diff[field];
    if (!c) continue;
    if (field === 'latitude' || field === 'longitude') {
      // One "pin" part for the point, whichever of its two numbers moved.
      if (field === 'longitude' && diff.latitude) continue;
      const point = (end: 'from' | 'to') => {
        const lat = diff.latitude ? diff.latitude[end] : place.latitude;
        const lng = diff.longitude ? diff.longitude[end] : place.longitude;
        return lat == null || lng == null ? 'none' : `${Number(lat).toFixed(5)}, ${Number(lng).toFixed(5)}`;
      };
      parts.push(`pin ${point('from')} → ${point('to')}`);
      continue;
    }
    if (field === 'hours') parts.push(`hours ${describeHoursChange(c.from as PlaceHours | null, c.to as PlaceHours | null)}`);
    else if (field === 'features' || field === 'services') {
      const from = c.from as number[];
      const to = c.to as number[];
      const names = await namesOf(trx, field, [...from, ...to]);
      const added = to.filter((id) => !from.includes(id)).map((id) => `+${names.get(id) ?? id}`);
      const removed = from.filter((id) => !to.includes(id)).map((id) => `−${names.get(id) ?? id}`);
      parts.push(`${field} ${[...added, ...removed].join(' ')}`);
    } else if (field === 'type_id') parts.push(`type ${typeNames.get(c.from as number) ?? 'none'} → ${typeNames.get(c.to as number) ?? 'none'}`);
    else if (field === 'sub_type_id') parts.push(`sub-type ${c.from == null ? 'none' : (subNames.get(c.from as number) ?? 'none')} → ${c.to == null ? 'none' : (subNames.get(c.to as number) ?? 'none')}`);
    else if (field === 'price_range') parts.push(`price range ${priceWords(c.from)} → ${priceWords(c.to)}`);
    else parts.push(`${FIELD_WORDS[field]} ${text(c.from)} → ${text(c.to)}`);
  }
  return parts.join('; ');
}

/** The derived columns of a point: neighbourhood and nearest station (none without a point). */
async function placeOfPoint(trx: Knex.Transaction, latitude: number | null, longitude: number | null, field: 'address' | 'latitude'): Promise<PlaceColumns> {
  if (latitude === null || longitude === null) return { neighbourhood_id: null, nearest_subway_stop_id: null, nearest_subway_stop_distance_m: null };
  const where = await locatePlace(trx, { latitude, longitude });
  if (!where.neighbourhood) throw ValidationError.field(field, 'This point is outside every Toronto neighbourhood: check the address and the pin.');
  return { neighbourhood_id: where.neighbourhood.id, nearest_subway_stop_id: where.station?.id ?? null, nearest_subway_stop_distance_m: where.station?.distanceM ?? null };
}

function columnsOf(changes: PlaceChanges): PlaceColumns {
  const out: PlaceColumns = {};
  for (const f of ['name', 'type_id', 'sub_type_id', 'address', 'latitude', 'longitude', 'phone', 'website', 'price_range'] as const) {
    if (changes[f] !== undefined) (out as Record<string, unknown>)[f] = changes[f];
  }
  if (changes.name !== undefined) out.slug = placeSlug(changes.name);
  return out;
}

export function placeSlug(name: string): string {
  return slugify(name).slice(0, 200) || 'place';
}

/** The fields the geocoder's gazetteer holds: a change to one of them names place-locations too. */
const LOCATING_FIELDS: readonly PlaceField[] = ['name', 'address', 'latitude', 'longitude'];

function purgeOf(before: Pick<DeskPlace, 'id' | 'slug' | 'type_slug' | 'neighbourhood_id'>, after: Pick<DeskPlace, 'id' | 'slug' | 'type_slug' | 'neighbourhood_id'>, located: boolean): PurgeNotice {
  const paths = [...new Set([urls.listing(before.type_slug, before.slug, before.id), urls.listing(after.type_slug, after.slug, after.id)])];
  const keys = [...new Set([
    ...placeKeys({ id: before.id, typeSlug: before.type_slug, neighbourhoodId: before.neighbourhood_id }),
    ...placeKeys({ id: after.id, typeSlug: after.type_slug, neighbourhoodId: after.neighbourhood_id }),
    ...(located ? [surrogateKeys.placeLocations] : []),
  ])];
  return { subject: `place:${after.id}`, paths, keys };
}

/**
 * Changes a place (see the top of this file). A field changed since `expected` is a 400 naming it;
 * so is a value no place may have. Answers the revision written (null when nothing changed).
 */
export async function changePlace(db: Db, who: ChangeActor, listingId: number, changes: PlaceChanges, opts: ChangeOptions = {}): Promise<ChangeResult> {
  const kind = opts.kind ?? 'edit';
  const result = await db.transaction(async (trx) => {
    const place = await deskPlace(trx, listingId, { forUpdate: true });
    if (!place) throw new NotFoundError();
    for (const [field, value] of Object.entries(opts.expected ?? {}) as Array<[PlaceField, unknown]>) {
      if (!same(field, currentValue(place, field), value)) {
        throw ValidationError.field(field, kind === 'revert' ? `The ${FIELD_WORDS[field]} has changed since that revision: revert the later change first, or edit it.` : `The ${FIELD_WORDS[field]} has changed since the suggestion was made.`);
      }
    }
    if (opts.sinceRevision !== undefined) {
      const shown = await valuesSinceChanged(trx, listingId, opts.sinceRevision);
      changes = { ...changes };
      const theirs: Record<string, string[]> = {};
      for (const field of PLACE_FIELDS) {
        if (!(field in shown) || changes[field] === undefined) continue;
        if (same(field, shown[field], changes[field])) delete changes[field];
        else if (!same(field, place[field], changes[field])) theirs[field] = [`Someone else changed the ${FIELD_WORDS[field]} since you opened this page${nowWords(field, place[field])}. Yours is kept below: save again to use it.`];
      }
      if (Object.keys(theirs).length) throw new PlaceEditConflict(theirs);
    }
    const diff: Record<string, FieldChange> = {};
    const real: PlaceChanges = {};
    for (const field of PLACE_FIELDS) {
      if (changes[field] === undefined || same(field, place[field], changes[field])) continue;
      diff[field] = { from: currentValue(place, field), to: norm(field, changes[field]) };
      (real as Record<string, unknown>)[field] = field === 'features' || field === 'services' ? sorted(changes[field] as number[]) : changes[field];
    }
    const changed = Object.keys(diff) as PlaceField[];
    if (!changed.length) return { revisionId: null, changed, purge: null };

    const after = { type_id: real.type_id ?? place.type_id, sub_type_id: real.sub_type_id !== undefined ? real.sub_type_id : place.sub_type_id };
    // A new type without a sub-type said: the old sub-type, if it is not the new type's, goes.
    if (real.type_id !== undefined && real.sub_type_id === undefined && after.sub_type_id !== null && (await subTypeParent(trx, after.sub_type_id)) !== after.type_id) {
      real.sub_type_id = null;
      after.sub_type_id = null;
      diff.sub_type_id = { from: place.sub_type_id, to: null };
      changed.push('sub_type_id');
    }
    await checkChanges(trx, real, after);
    const columns = columnsOf(real);
    if (real.latitude !== undefined || real.longitude !== undefined) {
      const lat = real.latitude !== undefined ? real.latitude : place.latitude;
      const lng = real.longitude !== undefined ? real.longitude : place.longitude;
      Object.assign(columns, await placeOfPoint(trx, lat, lng, real.address !== undefined ? 'address' : 'latitude'));
    }
    await updatePlace(trx, listingId, columns, real.hours, who.now);
    if (real.features) await setPlaceFeatures(trx, listingId, real.features);
    if (real.services) await setPlaceServices(trx, listingId, real.services);
    const summary = await summaryOf(trx, diff, place);
    const revisionId = await recordPlaceRevision(trx, who.actor, { listingId, kind, changes: diff, summary, revertsId: opts.revertsId ?? null });
    await recordStaffAction(trx, who.actor, {
      action: kind === 'edit' ? 'place.edit' : kind === 'revert' ? 'place.revert' : 'place.suggestion',
      subjectType: 'listing',
      subjectId: listingId,
      note: summary,
      detail: { revision: revisionId, fields: changed, ...(opts.revertsId ? { reverts: opts.revertsId } : {}) },
    });
    const now = (await deskPlace(trx, listingId))!;
    return { revisionId, changed, purge: purgeOf(place, now, changed.some((f) => LOCATING_FIELDS.includes(f))) };
  });
  if (result.purge && who.changes) await who.changes.announce(result.purge);
  return result;
}

/** A new place: its fields as a change from nothing, written as a 'create' revision. */
export async function createPlace(db: Db, who: ChangeActor, fields: PlaceChanges & { name: string; type_id: number }): Promise<{ id: number; revisionId: number; purge: PurgeNotice }> {
  const result = await db.transaction(async (trx) => {
    const all: PlaceChanges = { sub_type_id: null, address: '', latitude: null, longitude: null, phone: '', website: '', price_range: null, hours: null, features: [], services: [], ...fields };
    await checkChanges(trx, all, { type_id: all.type_id!, sub_type_id: all.sub_type_id ?? null });
    const columns = { ...columnsOf(all), ...(await placeOfPoint(trx, all.latitude ?? null, all.longitude ?? null, 'address')) } as PlaceColumns & { name: string; slug: string; type_id: number };
    const id = await insertPlace(trx, columns, all.hours ?? null, who.now);
    await setPlaceFeatures(trx, id, sorted(all.features ?? []));
    await setPlaceServices(trx, id, sorted(all.services ?? []));
    const diff: Record<string, FieldChange> = {};
    for (const field of PLACE_FIELDS) {
      const to = norm(field, all[field]);
      if (stableJson(to) !== stableJson(norm(field, field === 'features' || field === 'services' ? [] : null)) && to !== '') diff[field] = { from: null, to };
    }
    const summary = `added ${all.name}`;
    const revisionId = await recordPlaceRevision(trx, who.actor, { listingId: id, kind: 'create', changes: diff, summary });
    await recordStaffAction(trx, who.actor, { action: 'place.create', subjectType: 'listing', subjectId: id, note: all.name, detail: { revision: revisionId } });
    const place = (await deskPlace(trx, id))!;
    return { id, revisionId, purge: purgeOf(place, place, true) };
  });
  if (who.changes) await who.changes.announce(result.purge);
  return result;
}

/**
 * Writes back a revision's "from" values as a new 'revert' revision; refused (400 naming the
 * field) when a field has changed since that revision. A 'create' revision is not reverted.
 */
export async function revertRevision(db: Db, who: ChangeActor, listingId: number, revisionId: number): Promise<ChangeResult> {
  const rev = await placeRevision(db, listingId, revisionId);
  if (!rev) throw new NotFoundError();
  if (rev.kind === 'create') throw ValidationError.nonField('Adding the place cannot be reverted.');
  const fields = Object.keys(rev.changes).filter((f): f is PlaceField => (PLACE_FIELDS as readonly string[]).includes(f));
  if (!fields.length) throw ValidationError.nonField('This revision changed nothing the desk can write back.');
  const back: PlaceChanges = {};
  const expected: PlaceChanges = {};
  for (const f of fields) {
    (back as Record<string, unknown>)[f] = rev.changes[f].from;
    (expected as Record<string, unknown>)[f] = rev.changes[f].to;
  }
  return changePlace(db, who, listingId, back, { kind: 'revert', expected, revertsId: revisionId });
}

export interface WebsiteChecker {
  /** Why the site is not answering ("answered 404 Not Found"), or null when it answers. */
  (url: string): Promise<string | null>;
}

/**
 * The desk's operations with what they need from outside: the website check (newsroom's link
 * checker, under the outbound address rules; a test gives its own) and the geocoder.
 */
export function createPlacesDeskService(ctx: AppContext, deps: { checkWebsite?: WebsiteChecker } = {}) {
  const links = createLinkChecker({ ...LINK_CHECK_LIMITS, allowLoopback: ctx.config.calendarFeeds.allowLoopback });
  const checkWebsite: WebsiteChecker = deps.checkWebsite ?? (async (url) => (await links.check([url])).get(url) ?? null);

  /**
   * Fills in what a form leaves to the server: the point of the address when no point was given
   * (an address the geocoder cannot place is a 400 on `address`), and checks a new website answers.
   */
  async function prepare(changes: PlaceChanges, before: DeskPlace | null): Promise<PlaceChanges> {
    const out = { ...changes };
    const addressChanged = before ? out.address !== undefined && out.address !== before.address : true;
    const noPoint = out.latitude == null || out.longitude == null;
    const pointKept = before !== null && out.latitude === before.latitude && out.longitude === before.longitude;
    if (out.address && (noPoint || (addressChanged && pointKept))) {
      const point = await pointOfAddress(ctx.db, out.address);
      if (!point) {
        if (noPoint) throw ValidationError.field('address', 'We cannot place this address: check it, or place the pin on the map.');
      } else {
        out.latitude = point.latitude;
        out.longitude = point.longitude;
      }
    }
    if (out.website && out.website !== before?.website) {
      const problem = await checkWebsite(out.website);
      if (problem) throw ValidationError.field('website', `The website ${problem}: check the address.`);
    }
    return out;
  }

  return {
    async create(actor: StaffActor, fields: PlaceChanges & { name: string; type_id: number }) {
      const ready = (await prepare(fields, null)) as typeof fields;
      return createPlace(ctx.db, { actor, now: ctx.now(), changes: ctx.changes }, ready);
    },
    /** `sinceRevision`: the revision the editor's form was made from (see ChangeOptions). */
    async edit(actor: StaffActor, id: number, fields: PlaceChanges, sinceRevision?: number) {
      const before = await deskPlace(ctx.db, id);
      if (!before) throw new NotFoundError();
      return changePlace(ctx.db, { actor, now: ctx.now(), changes: ctx.changes }, id, await prepare(fields, before), { sinceRevision });
    },
    revert(actor: StaffActor, id: number, revisionId: number) {
      return revertRevision(ctx.db, { actor, now: ctx.now(), changes: ctx.changes }, id, revisionId);
    },
  };
}

export type PlacesDeskService = ReturnType<typeof createPlacesDeskService>;
