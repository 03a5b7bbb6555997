import crypto from 'node:crypto';
import moment from 'moment-timezone';
import type { Knex } from 'knex';
import type { AppContext } from '../../context';
import { NotFoundError, ValidationError, type FieldErrors } from '../../http/errors';
import { urls } from '../../../shared/urls';
import { placeKeys } from '../../http/surrogate-keys';
import { HOURS_DAY_FIELDS, hoursFromForm, hoursToForm } from '../../../shared/place-hours-form';
import { normalisePhone, stableJson, type PlaceChanges } from '../../../shared/places-desk';
import { readPlaceHours } from '../../../shared/place-hours';
import { pointOfAddress } from '../geocoder/queries';
import { CLOSED_REPORTS_FLAG, type SuggestionKind } from '../../../shared/place-suggestions';
import { recordStaffAction, type StaffActor } from '../staff-audit/audit-log-queries';
import { captchaSecret, verifyCaptcha } from '../contact/captcha';
import { CAPTCHA_ERRORS } from '../contact/service';
import { changePlace } from '../places-desk/service';
import { closePlace } from '../places-desk/closing-queries';
import { closingChange } from '../places-desk/closing';
import { captchaFieldsSchema, suggestionFormSchema } from './schemas';
import { addressKeyOf, createSuggestionRateLimit } from './rate-limit';
import { describeCurrent, describeValue, groupKey, SUGGESTION_FIELD } from './suggestion-values';
import {
  insertSuggestion, lockPendingOfKind, markDecided, pendingSuggestions, placesReportedClosed, recipientsOf, suggestionById, suggestionPlace,
  type SuggestionPlace, type SuggestionRow,
} from './queries';
import { suggestionAppliedEmail } from './suggestion-email';

// Readers' suggested edits (issue 39, "Readers help"). A reader (member, or guest past the
// contact form's captcha) says what is wrong; the row waits, shown to nobody but staff. Staff
// see agreeing suggestions grouped, and apply a group in one click through the desk's own
// change (changePlace, or closePlace for "closed"), which writes the place's revision and the
// audit entry and refuses when the field changed since the suggestion was made; or dismiss it.
// The readers who left an address are told after the commit.

/** The form field that holds each kind's value: where "that is what the page says" goes. */
const KIND_INPUT: Record<SuggestionKind, string> = { closed: 'kind', moved: 'address', hours: 'hours_mon', phone: 'phone', website: 'website', name: 'name' };

/** Who is suggesting: a member by id, a guest by the keyed hash of their address. */
export type Suggester = { memberId: number; addressKey?: undefined } | { memberId?: undefined; addressKey: string };

/** Agreeing pending suggestions of one place, as staff decide them. */
export interface SuggestionGroup {
  /** The newest suggestion's id: the group's handle in the staff forms. */
  id: number;
  kind: SuggestionKind;
  value: unknown;
  suggested: string;
  current: string;
  /** Different people (members, guests' addresses) agreeing. */
  readers: number;
  notes: Array<{ text: string; at: Date }>;
  first: Date;
  last: Date;
  /** The field changed since the newest of them was made: applying will be refused. */
  stale: boolean;
}

export interface PlaceSuggestions {
  place: SuggestionPlace & { url: string };
  groups: SuggestionGroup[];
}

const authorOf = (r: Pick<SuggestionRow, 'member_id' | 'guest_key'>) => (r.member_id !== null ? `m${r.member_id}` : `g${r.guest_key}`);

/** The value of a kind's field on the place now, in the field's shape (what `base` keeps). */
function currentValue(place: SuggestionPlace, kind: SuggestionKind): unknown {
  const field = SUGGESTION_FIELD[kind];
  return field === 'closed_on' ? place.closed_on : place[field] ?? null;
}

const sameValue = (a: unknown, b: unknown) => stableJson(a ?? null) === stableJson(b ?? null);

export type PlaceSuggestionsService = ReturnType<typeof createPlaceSuggestionsService>;

/** Built once per app by the registry (apps/index.ts): one limiter for the form, one clock. */
export function createPlaceSuggestionsService(deps: Pick<AppContext, 'db' | 'config' | 'now' | 'mailer' | 'logger' | 'changes'>) {
  const { db, config, mailer, logger } = deps;
  // Read at each call: a test may set its ctx.now after the app is built.
  const now = () => deps.now();
  const secret = crypto.createHmac('sha256', config.sessionSecret).update('place-suggestions').digest('base64url');
  const today = () => moment.tz(now(), config.city.timeZone).format('YYYY-MM-DD');

  /** Reads the form: every field's errors at once, the guest's captcha last (spent only by an otherwise good form). */
  async function read(place: SuggestionPlace, body: Record<string, string>, who: Suggester) {
    const parsed = suggestionFormSchema.safeParse(body);
    const fields: FieldErrors = {};
    const add = (field: string, message: string) => (fields[field] ??= []).push(message);
    if (!parsed.success) for (const issue of parsed.error.issues) add(String(issue.path[0] ?? 'kind'), issue.message);
    let value: unknown = null;
    if (parsed.success) {
      const f = parsed.data;
      if (f.kind === 'hours') {
        // A reader says the weekly hours; the place's holiday rule and temporary closure stay as they are.
        const days = Object.fromEntries(Object.values(HOURS_DAY_FIELDS).map((f) => [f, body[f] ?? '']));
        const hours = hoursFromForm({ ...hoursToForm(place.hours), hours_unknown: '', ...days });
        if (hours.ok) value = hours.hours;
        else for (const [field, message] of Object.entries(hours.errors)) add(field, message);
      } else if (f.kind === 'closed') value = f.closed_on || null;
      else if (f.kind === 'moved') value = f.address;
      else if (f.kind === 'phone') value = normalisePhone(f.phone);
      else value = f[f.kind];
      if (!Object.keys(fields).length) {
        if (f.kind === 'closed' ? place.closed_on !== null : sameValue(value, currentValue(place, f.kind)) || (typeof value === 'string' && groupKey(f.kind, value) === groupKey(f.kind, currentValue(place, f.kind)))) {
          add(KIND_INPUT[f.kind], f.kind === 'closed' ? 'This place is already marked closed.' : 'That is what the page says already.');
        }
      }
    }
    if (who.memberId === undefined && !Object.keys(fields).length) {
      const captcha = captchaFieldsSchema.safeParse(body);
      if (!captcha.success) for (const issue of captcha.error.issues) add(String(issue.path[0]), issue.message);
      else {
        const result = await verifyCaptcha(db, captchaSecret(config.sessionSecret), captcha.data.captcha_key, captcha.data.captcha, now());
        if (result !== 'ok') add('captcha', CAPTCHA_ERRORS[result]);
      }
    }
    if (Object.keys(fields).length || !parsed.success) throw new ValidationError(fields);
    return { kind: parsed.data.kind, value, note: parsed.data.note, guestEmail: parsed.data.guest_email };
  }

  /** Locks a group's rows (the suggestion's pending agreeing ones); refused when none is left. */
  async function lockGroup(trx: Knex.Transaction, id: number): Promise<SuggestionRow[]> {
    const s = await suggestionById(trx, id);
    if (!s) throw new NotFoundError();
    const key = groupKey(s.kind, s.value);
    const rows = (await lockPendingOfKind(trx, s.listing_id, s.kind)).filter((r) => groupKey(r.kind, r.value) === key);
    if (!rows.length) throw ValidationError.nonField('These suggestions were already decided.');
    return rows;
  }

  return {
    /** Suggestions a day per member or address, to put before the form's POST (rate-limit.ts). */
    rateLimit: createSuggestionRateLimit(config.rateLimits, db, secret),

    /** Who is suggesting, from the request. */
    suggesterOf(req: Parameters<typeof addressKeyOf>[1]): Suggester {
      return req.user ? { memberId: req.user.id } : { addressKey: addressKeyOf(secret, req) };
    },

    place: (listingId: number) => suggestionPlace(db, listingId),

    /** Stores a suggestion (a 400 naming the field when the form is wrong); answers its id. */
    async submit(place: SuggestionPlace, body: Record<string, string>, who: Suggester): Promise<number> {
      const input = await read(place, body, who);
      return insertSuggestion(db, {
        listing_id: place.id,
        member_id: who.memberId ?? null,
        guest_key: who.memberId === undefined ? who.addressKey : null,
        // A member is told at their account's address; a guest only if they gave one.
        guest_email: who.memberId === undefined && input.guestEmail ? input.guestEmail : null,
        kind: input.kind,
        value: input.value,
        base: currentValue(place, input.kind),
        note: input.note,
        created_at: now(),
      });
    },

    /** The staff page: places flagged as closed by several people, then every pending group by place. */
    async pending(limit = 500): Promise<{ flagged: Array<{ listing_id: number; name: string; reporters: number }>; places: PlaceSuggestions[]; truncated: boolean }> {
      const [{ rows, places }, flagged] = await Promise.all([pendingSuggestions(db, limit + 1), placesReportedClosed(db, CLOSED_REPORTS_FLAG)]);
      const truncated = rows.length > limit;
      const byPlace = new Map<number, SuggestionRow[]>();
      for (const r of rows.slice(0, limit)) byPlace.set(r.listing_id, [...(byPlace.get(r.listing_id) ?? []), r]);
      const flaggedIds = new Set(flagged.map((f) => f.listing_id));
      const out: PlaceSuggestions[] = [];
      for (const place of places) {
        const groups = new Map<string, SuggestionRow[]>();
        for (const r of byPlace.get(place.id) ?? []) {
          const key = groupKey(r.kind, r.value);
          groups.set(key, [...(groups.get(key) ?? []), r]);
        }
        const list: SuggestionGroup[] = [...groups.values()].map((g) => {
          const newest = g[g.length - 1];
          const current = currentValue(place, newest.kind);
          return {
            id: newest.id,
            kind: newest.kind,
            value: newest.value,
            suggested: describeValue(newest.kind, newest.kind === 'closed' ? (g.map((r) => r.value).filter(Boolean).sort()[0] ?? null) : newest.value),
            current: describeCurrent(newest.kind, current),
            readers: new Set(g.map(authorOf)).size,
            notes: g.filter((r) => r.note).map((r) => ({ text: r.note, at: r.created_at })),
            first: g[0].created_at,
            last: newest.created_at,
            stale: !sameValue(current, newest.base),
          };
        });
        // Most agreement first.
        list.sort((a, b) => b.readers - a.readers || a.id - b.id);
        out.push({ place: { ...place, url: urls.listing(place.type_slug, place.slug, place.id) }, groups: list });
      }
      // Flagged places first, then the place waiting longest.
      const oldest = (p: PlaceSuggestions) => Math.min(...p.groups.map((g) => g.first.getTime()));
      out.sort((a, b) => Number(flaggedIds.has(b.place.id)) - Number(flaggedIds.has(a.place.id)) || oldest(a) - oldest(b));
      return { flagged, places: out, truncated };
    },

    /**
     * Applies the group of suggestion `id` through the desk (one transaction: the place, its
     * revision, the audit entries, the rows marked applied), then purges the place's pages and
     * tells the readers. Refused (ValidationError, nothing saved) when the field changed since
     * the newest suggestion of the group was made.
     */
    async apply(actor: StaffActor, id: number): Promise<{ listingId: number; kind: SuggestionKind; applied: number; emailed: number }> {
      const at = now();
      const done = await db.transaction(async (trx) => {
        const rows = await lockGroup(trx, id);
        const newest = rows[rows.length - 1];
        const { kind, listing_id: listingId } = newest;
        const place = await suggestionPlace(trx, listingId);
        if (!place) throw new NotFoundError();
        const changedSince = () => ValidationError.nonField(`The ${SUGGESTION_FIELD[kind].replace('_on', '')} changed since this was suggested (it is now ${describeCurrent(kind, currentValue(place, kind))}): check it, then dismiss or edit the place.`);
        let purge: { subject: string; paths: string[]; keys: string[] };
        if (kind === 'closed') {
          if (place.closed_on !== null) throw changedSince();
          // The earliest day a reader gave, else today.
          const closedOn = rows.map((r) => r.value).filter((v): v is string => typeof v === 'string').sort()[0] ?? today();
          const closed = await closePlace(trx, { actor, now: at, timeZone: config.city.timeZone }, listingId, { closedOn, note: '' });
          purge = closingChange(closed);
        } else {
          if (!sameValue(currentValue(place, kind), newest.base)) throw changedSince();
          const field = SUGGESTION_FIELD[kind] as 'address' | 'hours' | 'phone' | 'website' | 'name';
          const changes: PlaceChanges = { [field]: newest.value };
          if (kind === 'moved') {
            // A new address moves the pin (and with it the neighbourhood and the station).
            const point = await pointOfAddress(trx, String(newest.value));
            if (!point) throw ValidationError.field('address', 'Our map cannot place this address: open the place on the desk and place its pin.');
            Object.assign(changes, point);
          }
          // The desk refuses (400 naming the field) when the field moved between our read and its lock.
          const changed = await changePlace(trx, { actor, now: at }, listingId, changes, {
            kind: 'suggestion',
            expected: { [field]: kind === 'hours' ? readPlaceHours(newest.base) : newest.base },
          });
          purge = changed.purge ?? { subject: `place:${listingId}`, paths: [urls.listing(place.type_slug, place.slug, listingId)], keys: placeKeys({ id: listingId, typeSlug: place.type_slug, neighbourhoodId: place.neighbourhood_id }) };
        }
        const ids = rows.map((r) => r.id);
        await markDecided(trx, ids, 'applied', actor.id, at);
        await recordStaffAction(trx, actor, { action: 'place_suggestion.apply', subjectType: 'listing', subjectId: listingId, detail: { kind, suggestions: ids, value: newest.value } });
        const final = (await suggestionPlace(trx, listingId)) ?? place;
        return { ids, kind, listingId, purge, placeName: final.name, placePath: urls.listing(final.type_slug, final.slug, listingId) };
      });
      await deps.changes.announce(done.purge);
      // After the commit: an email that fails is logged, the edit stays applied.
      let emailed = 0;
      for (const r of await recipientsOf(db, done.ids)) {
        try {
          await mailer.send(suggestionAppliedEmail({ siteName: config.site.name, siteUrl: config.site.url, to: r.email, name: r.name }, { name: done.placeName, path: done.placePath }, done.kind));
          emailed += 1;
        } catch (err) {
          logger.error({ err, listingId: done.listingId }, 'place suggestion applied but its reader not emailed');
        }
      }
      return { listingId: done.listingId, kind: done.kind, applied: done.ids.length, emailed };
    },

    /** Dismisses the group of suggestion `id`: the rows stay, marked dismissed, with the audit entry. */
    async dismiss(actor: StaffActor, id: number): Promise<{ listingId: number; dismissed: number }> {
      return db.transaction(async (trx) => {
        const rows = await lockGroup(trx, id);
        const ids = rows.map((r) => r.id);
        await markDecided(trx, ids, 'dismissed', actor.id, now());
        await recordStaffAction(trx, actor, { action: 'place_suggestion.dismiss', subjectType: 'listing', subjectId: rows[0].listing_id, detail: { kind: rows[0].kind, suggestions: ids } });
        return { listingId: rows[0].listing_id, dismissed: ids.length };
      });
    },
  };
}
