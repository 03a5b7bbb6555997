import { Router, type Request, type Response } from 'express';
import type { AppContext } from '../../context';
import { requireStaffPage } from '../../http/auth-guards';
import { staffMenu, type StaffSection } from '../../http/staff-menu';
import { NotFoundError, ValidationError, type FieldErrors } from '../../http/errors';
import { idParam, textFieldsOf } from '../../http/validate';
import { page, PageRedirect, type PageView } from '../../http/pages/page-view';
import { formPost } from '../../http/pages/form-post';
import { pagesOrFirstPage, pageWindow } from '../../http/pages/page-param';
import { addIsland } from '../../views';
import { urls } from '../../../shared/urls';
import { HOURS_DAY_FIELDS, hoursToForm } from '../../../shared/place-hours-form';
import { HOLIDAY_POLICIES, WEEKDAY_NAMES, WEEKDAYS } from '../../../shared/place-hours';
import { phoneHref, PLACE_ADDRESS_MAX, PLACE_NAME_MAX, PLACE_WEBSITE_MAX, PRICE_RANGES } from '../../../shared/places-desk';
import { featureOptions, listingSubTypesQuery, listingTypesQuery, serviceOptions, typeOptions } from '../listings/queries';
import { staffActorOf } from '../staff-audit/audit-log-queries';
import { closePlaceAndPurge, closingFormView, reopenPlaceAndPurge } from './closing';
import { deskPlace, deskPlaces, neighbourhoodOptions, RECENT_DAYS, type DeskListFilters, type DeskPlace } from './queries';
import { placeRevisions } from './revision-queries';
import { closePlaceSchema, placeFormSchema } from './schemas';
import { PlaceEditConflict, type PlacesDeskService } from './service';
import { placeKeys } from '../../http/surrogate-keys';
import { placeReview, ReviewConflictError, reviewVersion, savePlaceReview, type PlaceReviewRow } from './review-queries';
import { storyDocError, type StoryDoc } from '../../../shared/newsroom';
import { placeReviewSchema, REVIEW_BYLINE_MAX, REVIEW_MAX } from './schemas';

// The places desk (/staff/places/, issue 39): the list of places with search and filters, the
// form that adds a place and the same form filled to edit one, a place's revisions with a
// Revert button each. Like every /staff/ page: staff only, plain forms with the CSRF token that
// work without JavaScript (the map pin is an island on top of the latitude/longitude inputs; an
// empty point is placed by the geocoder), a 303 after a POST, a refused form back 400 with each
// message beside its field and what was typed kept.

const LIST_URL = '/staff/places/';
const PER_PAGE = 50;
const RECENT_REVISIONS = 5;
const REVISIONS_PER_PAGE = 50;

/** The places desk's section of the staff menu. */
export const placesDeskStaffSection: StaffSection = {
  href: LIST_URL,
  title: 'Places',
  text: 'Find, add and edit places: details, hours, the map pin; revisions and revert.',
};

const placeUrl = (id: number) => `${LIST_URL}${id}/`;

/** The filters of the list from its query string; anything unreadable is no filter. */
function listFilters(req: Request): DeskListFilters {
  const q = (name: string) => (typeof req.query[name] === 'string' ? (req.query[name] as string).trim() : '');
  const id = (name: string) => (/^\d{1,9}$/.test(q(name)) ? Number(q(name)) : null);
  const on = (name: string) => q(name) === '1' || q(name) === 'on';
  return { q: q('q').slice(0, 100), typeId: id('type'), neighbourhoodId: id('neighbourhood'), closed: on('closed'), recent: on('recent'), reported: on('reported') };
}

/** The list's query string without the page, for the pager's links. */
function filterQuery(f: DeskListFilters): string {
  const p = new URLSearchParams();
  if (f.q) p.set('q', f.q);
  if (f.typeId !== null) p.set('type', String(f.typeId));
  if (f.neighbourhoodId !== null) p.set('neighbourhood', String(f.neighbourhoodId));
  if (f.closed) p.set('closed', '1');
  if (f.recent) p.set('recent', '1');
  if (f.reported) p.set('reported', '1');
  return p.toString();
}

interface FormState {
  fields: FieldErrors;
  values: Record<string, string>;
  /** The revision the form was made from, when not the place's latest (see ChangeOptions.sinceRevision). */
  baseRevision?: number;
}

/** The form's `base_revision` (the revision it was made from): a number, none, or 'damaged'. */
function baseRevisionOf(body: Record<string, string>): number | undefined | 'damaged' {
  const v = body.base_revision;
  if (v === undefined || v === '') return undefined;
  return /^\d{1,15}$/.test(v) ? Number(v) : 'damaged';
}

/** The form's values for a place (or a new one), as the inputs show them. */
function formValues(place: DeskPlace | null): Record<string, string> {
  if (!place) return { ...hoursToForm(null), hours_unknown: '' };
  const values: Record<string, string> = {
    name: place.name,
    type_id: String(place.type_id),
    sub_type_id: place.sub_type_id === null ? '' : String(place.sub_type_id),
    address: place.address,
    latitude: place.latitude === null ? '' : String(place.latitude),
    longitude: place.longitude === null ? '' : String(place.longitude),
    phone: place.phone,
    website: place.website,
    price_range: place.price_range === null ? '' : String(place.price_range),
    ...hoursToForm(place.hours),
  };
  for (const id of place.features) values[`feature_${id}`] = 'on';
  for (const id of place.services) values[`service_${id}`] = 'on';
  return values;
}

export function placesDeskPages(ctx: AppContext, desk: PlacesDeskService): Router {
  const router = Router();
  const staffOnly = requireStaffPage;
  const common = (pageTitle: string) => ({ ...staffMenu(ctx, LIST_URL), pageTitle });

  router.get(LIST_URL, staffOnly, page('private', async (req) => {
    const filters = listFilters(req);
    const window = pageWindow(req, PER_PAGE);
    const [{ rows, count }, types, neighbourhoods] = await Promise.all([deskPlaces(ctx.db, filters, ctx.now(), window), listingTypesQuery(ctx.db), neighbourhoodOptions(ctx.db)]);
    const pages = pagesOrFirstPage(req, window.page, count, PER_PAGE);
    return {
      template: 'places-desk/index.njk',
      ...common('Places'),
      places: rows.map((r) => ({ ...r, editUrl: placeUrl(r.id), publicUrl: urls.listing(r.type_slug, r.slug, r.id) })),
      count,
      page: window.page,
      pages,
      filters,
      query: filterQuery(filters),
      types,
      neighbourhoods,
      recentDays: RECENT_DAYS,
    };
  }));

  /** The add or edit form; `place` null for a new one. */
  const formPage = async (req: Request, res: Response, place: DeskPlace | null, state: FormState | null = null): Promise<PageView> => {
    const [types, subTypes, features, services, revisions, closing] = await Promise.all([
      listingTypesQuery(ctx.db),
      listingSubTypesQuery(ctx.db),
      featureOptions(ctx.db),
      serviceOptions(ctx.db),
      place ? placeRevisions(ctx.db, place.id, { limit: RECENT_REVISIONS, offset: 0 }) : Promise.resolve([]),
      place ? closingFormView(ctx, place.id, { done: state ? null : (req.query.closing as string | undefined) }) : Promise.resolve(undefined),
    ]);
    addIsland(res, 'place-pin', null);
    const saved = !state && req.query.done === 'saved';
    const values = state ? state.values : formValues(place);
    return {
      template: 'places-desk/place.njk',
      ...common(place ? `${place.name} – Places` : 'Add a place'),
      place,
      publicUrl: place ? urls.listing(place.type_slug, place.slug, place.id) : null,
      phoneHref: place?.phone ? phoneHref(place.phone) : null,
      action: place ? placeUrl(place.id) : `${LIST_URL}new/`,
      types: typeOptions(types, subTypes),
      features,
      services,
      priceRanges: PRICE_RANGES,
      days: WEEKDAYS.map((d) => ({ field: HOURS_DAY_FIELDS[d], name: WEEKDAY_NAMES[d] })),
      holidayPolicies: HOLIDAY_POLICIES,
      limits: { name: PLACE_NAME_MAX, address: PLACE_ADDRESS_MAX, website: PLACE_WEBSITE_MAX },
      values,
      errors: state?.fields ?? null,
      done: saved ? 'saved' : req.query.done === 'added' && !state ? 'added' : req.query.done === 'unchanged' && !state ? 'unchanged' : null,
      revisions,
      revisionsUrl: place ? `${placeUrl(place.id)}revisions/` : null,
      closing,
      // A form shown again keeps the revision it was first made from; a new one, the latest.
      baseRevision: state?.baseRevision ?? (revisions[0]?.id ?? 0),
    };
  };

  const loadPlace = async (req: Request): Promise<DeskPlace> => {
    const place = await deskPlace(ctx.db, idParam(req.params.id));
    if (!place) throw new NotFoundError();
    return place;
  };

  const policy = { allowLoopback: ctx.config.calendarFeeds.allowLoopback };

  router.get(`${LIST_URL}new/`, staffOnly, page('private', (req, res) => formPage(req, res, null)));
  router.post(`${LIST_URL}new/`, staffOnly, page('private', (req, res) =>
    formPost(res, {
      schema: placeFormSchema(policy),
      body: textFieldsOf(req.body),
      valid: async (form) => {
        const done = await desk.create(staffActorOf(req), form);
        return new PageRedirect(`${placeUrl(done.id)}?done=added`, 303);
      },
      invalid: (fields, values) => formPage(req, res, null, { fields, values }),
    })));

  router.get(`${LIST_URL}:id/`, staffOnly, page('private', async (req, res) => formPage(req, res, await loadPlace(req))));
  router.post(`${LIST_URL}:id/`, staffOnly, page('private', async (req, res) => {
    const place = await loadPlace(req);
    const body = textFieldsOf(req.body);
    const since = baseRevisionOf(body);
    return formPost(res, {
      schema: placeFormSchema(policy),
      body,
      valid: async (form) => {
        if (since === 'damaged') throw ValidationError.field('base_revision', 'This form was damaged on its way: reload the page and make your changes again.');
        let done;
        try {
          done = await desk.edit(staffActorOf(req), place.id, form, since);
        } catch (err) {
          if (!(err instanceof PlaceEditConflict)) throw err;
          // Another editor saved the same field meanwhile: 409, the page again with what was
          // typed, made from the latest revision so that saving again keeps this editor's value.
          res.status(409);
          return formPage(req, res, (await deskPlace(ctx.db, place.id)) ?? place, { fields: err.fields, values: body });
        }
        return new PageRedirect(`${placeUrl(place.id)}?done=${done.revisionId ? 'saved' : 'unchanged'}`, 303);
      },
      invalid: (fields, values) => formPage(req, res, place, { fields, values, baseRevision: since === 'damaged' ? undefined : since }),
    });
  }));

  const revisionsPage = async (req: Request, place: DeskPlace, refused: { revision: number; fields: FieldErrors } | null = null): Promise<PageView> => {
    const window = pageWindow(req, REVISIONS_PER_PAGE);
    const revisions = await placeRevisions(ctx.db, place.id, { limit: REVISIONS_PER_PAGE + 1, offset: window.offset });
    const reverted = !refused && typeof req.query.reverted === 'string' && /^\d{1,18}$/.test(req.query.reverted) ? Number(req.query.reverted) : null;
    return {
      template: 'places-desk/revisions.njk',
      ...common(`Revisions of ${place.name} – Places`),
      place,
      editUrl: placeUrl(place.id),
      publicUrl: urls.listing(place.type_slug, place.slug, place.id),
      revisions: revisions.slice(0, REVISIONS_PER_PAGE),
      page: window.page,
      hasMore: revisions.length > REVISIONS_PER_PAGE,
      refused,
      reverted,
    };
  };

  router.get(`${LIST_URL}:id/revisions/`, staffOnly, page('private', async (req) => revisionsPage(req, await loadPlace(req))));
  router.post(`${LIST_URL}:id/revisions/:rev/revert/`, staffOnly, page('private', async (req, res) => {
    const place = await loadPlace(req);
    const revisionId = idParam(req.params.rev);
    return formPost(res, {
      valid: async () => {
        const done = await desk.revert(staffActorOf(req), place.id, revisionId);
        return new PageRedirect(`${placeUrl(place.id)}revisions/?reverted=${done.revisionId ?? ''}`, 303);
      },
      invalid: (fields) => revisionsPage(req, place, { revision: revisionId, fields }),
    });
  }));

  // --- Closing a place and reopening it (helper "closing"; places-desk/closing.ts) ---------
  // The form is on the place's edit page (#closing); a refused closing comes back 400 on the
  // closing page of its own, with the message beside its field and what was typed.
  const closingPage = async (id: number, errors: { fields: FieldErrors; values: Record<string, string> } | null = null): Promise<PageView> => {
    const closing = await closingFormView(ctx, id, { errors });
    if (!closing) throw new NotFoundError();
    return { template: 'places-desk/close.njk', ...common(`Close ${closing.placeName} – Places`), closing };
  };
  router.get(`${LIST_URL}:id/close/`, staffOnly, page('private', (req) => closingPage(idParam(req.params.id))));
  router.post(`${LIST_URL}:id/close/`, staffOnly, page('private', async (req, res) => {
    const id = idParam(req.params.id);
    return formPost(res, {
      schema: closePlaceSchema,
      body: textFieldsOf(req.body),
      valid: async (form) => {
        await closePlaceAndPurge(ctx, staffActorOf(req), id, { closedOn: form.closed_on, note: form.note });
        return new PageRedirect(`${placeUrl(id)}?closing=closed#closing`, 303);
      },
      invalid: (fields, values) => closingPage(id, { fields, values }),
    });
  }));
  router.post(`${LIST_URL}:id/reopen/`, staffOnly, page('private', async (req, res) => {
    const id = idParam(req.params.id);
    return formPost(res, {
      valid: async () => {
        await reopenPlaceAndPurge(ctx, staffActorOf(req), id);
        return new PageRedirect(`${placeUrl(id)}?closing=reopened#closing`, 303);
      },
      invalid: (fields) => closingPage(id, { fields, values: {} }),
    });
  }));
  // --- end of closing ----------------------------------------------------------------------

  // --- A place's review (helper "review"; places-desk/review-queries.ts) -------------------
  // /staff/places/{id}/review/: the review (the editor island's document, or plain paragraphs
  // in the textarea without JavaScript; the review-editor island), its byline (the staff
  // member's name to start with), published or not. A save writes the place, a revision and the
  // audit entry together, then purges the place's page and every list of places, whose maps'
  // "View Review" links it; placeKeys' hub- key also drops the navbar's RECENT REVIEWS.
  /** A refused form's posted document, for the editor to start from again; null if it was unreadable. */
  const postedReviewDoc = (json: string | undefined): StoryDoc | null => {
    if (!json) return null;
    try {
      const doc: unknown = JSON.parse(json);
      return storyDocError(doc) ? null : (doc as StoryDoc);
    } catch {
      return null;
    }
  };
  const REVIEW_DONE: Record<string, string> = {
    published: 'Published: the review is on the place\'s page and in RECENT REVIEWS.',
    unpublished: 'Unpublished: readers no longer see the review.',
    saved: 'Saved.',
    unchanged: 'Nothing had changed: nothing was saved.',
  };
  type ReviewRefusal = { fields: FieldErrors; values: Record<string, string>; conflict?: PlaceReviewRow };
  const reviewPage = async (req: Request, res: Response, id: number, errors: ReviewRefusal | null = null): Promise<PageView> => {
    const place = await placeReview(ctx.db, id);
    if (!place) throw new NotFoundError();
    const version = reviewVersion(place);
    // What was typed when refused (the editor's document too); else the review, or the description to start from.
    const values = errors?.values ?? {
      review: place.review || (place.review_published_at ? '' : place.description),
      byline: place.review_byline || req.user?.full_name || '',
      review_version: version,
    };
    // Refused for someone else's save: the next save is made on theirs, knowingly.
    if (errors?.conflict) values.review_version = version;
    addIsland(res, 'review-editor', { placeId: place.id, doc: errors ? postedReviewDoc(errors.values.review_doc) : place.review_doc, version: values.review_version ?? version });
    return {
      template: 'places-desk/review.njk',
      ...common(`Review of ${place.name} – Places`),
      place,
      formUrl: `${placeUrl(id)}review/`,
      deskUrl: placeUrl(id),
      publicUrl: urls.listing(place.type_slug, place.slug, place.id),
      values,
      // Their review beside the typed one, to compare before replacing it.
      conflict: errors?.conflict ? { author: errors.conflict.author_name, text: errors.conflict.review } : null,
      limits: { review: REVIEW_MAX, reviewText: REVIEW_MAX.toLocaleString('en-US'), byline: REVIEW_BYLINE_MAX },
      errors,
      done: !errors && typeof req.query.done === 'string' ? REVIEW_DONE[req.query.done] ?? null : null,
    };
  };
  router.get(`${LIST_URL}:id/review/`, staffOnly, page('private', (req, res) => reviewPage(req, res, idParam(req.params.id))));
  router.post(`${LIST_URL}:id/review/`, staffOnly, page('private', async (req, res) => {
    const id = idParam(req.params.id);
    if (!(await placeReview(ctx.db, id))) throw new NotFoundError();
    const body = textFieldsOf(req.body);
    return formPost(res, {
      schema: placeReviewSchema,
      body,
      valid: async (form) => {
        let saved;
        try {
          saved = await savePlaceReview(ctx.db, { actor: staffActorOf(req), now: ctx.now() }, id, form);
        } catch (err) {
          if (!(err instanceof ReviewConflictError)) throw err;
          // Someone else saved since the form was made: 409, the page again with what was typed.
          res.status(409);
          return reviewPage(req, res, id, { fields: err.fields, values: body, conflict: err.current });
        }
        if (saved.done !== 'unchanged') {
          await ctx.changes.announce({ subject: `place:${id}`, paths: [urls.listing(saved.place.typeSlug, saved.place.slug, id)], keys: placeKeys(saved.place) });
        }
        return new PageRedirect(`${placeUrl(id)}review/?done=${saved.done}`, 303);
      },
      invalid: (fields, values) => reviewPage(req, res, id, { fields, values }),
    });
  }));
  // --- end of a place's review -------------------------------------------------------------

  return router;
}
