import { Router, type Request, type Response } from 'express';
import type { AppContext } from '../../context';
import { requireStaffPage } from '../../http/auth-guards';
import { staffMenu, type StaffSection } from '../../http/staff-menu';
import { NotFoundError, type FieldErrors } from '../../http/errors';
import { idParam, textFieldsOf } from '../../http/validate';
import { page, PageRedirect, type PageView } from '../../http/pages/page-view';
import { formPost } from '../../http/pages/form-post';
import { urls } from '../../../shared/urls';
import { HOURS_DAY_FIELDS, hoursToForm } from '../../../shared/place-hours-form';
import { WEEKDAYS } from '../../../shared/place-hours';
import { SUGGESTION_KIND_LABELS, SUGGESTION_KINDS, SUGGESTION_NOTE_MAX, SUGGESTIONS_PER_DAY, CLOSED_REPORTS_FLAG } from '../../../shared/place-suggestions';
import { PLACE_ADDRESS_MAX, PLACE_NAME_MAX, PLACE_WEBSITE_MAX } from '../../../shared/places-desk';
import { staffActorOf } from '../staff-audit/audit-log-queries';
import { captchaSecret, createCaptcha } from '../contact/captcha';
import { pendingSuggestionCount, type SuggestionPlace } from './queries';
import type { PlaceSuggestionsService } from './service';

// Readers' suggested edits (issue 39).
// - /places/{id}/suggest/: "Suggest an edit", a plain form that works without JavaScript, for
//   members and guests (guests answer the contact form's captcha), never shared by a cache
//   (private: it carries the CSRF token and, for guests, a captcha). A refused form comes back
//   400 with each message beside its field and what was typed; a good one is a 303 to the thanks.
// - /staff/places/suggestions/: staff decide pending suggestions, grouped by place and by what
//   they say (service.ts), each group applied or dismissed with one button (303 after the POST;
//   a refused apply comes back 400 with the message beside its group, which stays pending).

const STAFF_URL = '/staff/places/suggestions/';

/** The suggestions' section of the staff menu, with its badge (the registry puts it in order). */
export const placeSuggestionsStaffSection: StaffSection = {
  href: STAFF_URL,
  title: 'Readers’ suggestions',
  text: 'Edits readers suggested to places: apply them in one click or dismiss them.',
  pending: pendingSuggestionCount,
};

const DAY_LABELS: Record<string, string> = { mon: 'Monday', tue: 'Tuesday', wed: 'Wednesday', thu: 'Thursday', fri: 'Friday', sat: 'Saturday', sun: 'Sunday' };

/** The form's fields as first shown: the place's current values, for the reader to correct. */
function currentFields(place: SuggestionPlace): Record<string, string> {
  const hours = hoursToForm(place.hours);
  return {
    kind: '',
    address: place.address,
    phone: place.phone,
    website: place.website,
    name: place.name,
    closed_on: '',
    note: '',
    guest_email: '',
    ...Object.fromEntries(Object.values(HOURS_DAY_FIELDS).map((f) => [f, place.hours ? hours[f] : ''])),
  };
}

export function placeSuggestionsPages(ctx: AppContext, suggestions: PlaceSuggestionsService): Router {
  const router = Router();
  const path = '/places/:id/suggest/';

  const placeOf = async (req: Request): Promise<SuggestionPlace> => {
    const place = await suggestions.place(idParam(req.params.id));
    if (!place) throw new NotFoundError();
    return place;
  };

  const formPage = (req: Request, place: SuggestionPlace, values: Record<string, string>, errors: FieldErrors = {}, sent = false): PageView => ({
    template: 'place-suggestions/suggest.njk',
    place: { ...place, url: urls.listing(place.type_slug, place.slug, place.id) },
    kinds: SUGGESTION_KINDS.map((k) => ({ value: k, label: SUGGESTION_KIND_LABELS[k] })),
    days: WEEKDAYS.map((d) => ({ field: HOURS_DAY_FIELDS[d], label: DAY_LABELS[d] })),
    values,
    errors,
    sent,
    guest: !req.user,
    // A guest's question, fresh with every form (a key is spent once answered).
    captcha: req.user ? null : createCaptcha(captchaSecret(ctx.config.sessionSecret), ctx.now()),
    limits: { note: SUGGESTION_NOTE_MAX, address: PLACE_ADDRESS_MAX, name: PLACE_NAME_MAX, website: PLACE_WEBSITE_MAX, perDay: SUGGESTIONS_PER_DAY },
    pageTitle: `Suggest an edit – ${place.name}`,
    pageDescription: `Tell us what changed at ${place.name}: closed, moved, hours, phone, website or name.`,
  });

  router.get(path, page('private', async (req) => {
    const place = await placeOf(req);
    return formPage(req, place, currentFields(place), {}, req.query.sent === '1');
  }));

  router.post(path, suggestions.rateLimit, page('private', async (req: Request, res: Response) => {
    const place = await placeOf(req);
    const body = textFieldsOf(req.body);
    return formPost(res, {
      valid: async () => {
        await suggestions.submit(place, body, suggestions.suggesterOf(req));
        return new PageRedirect(`/places/${place.id}/suggest/?sent=1`, 303);
      },
      invalid: (errors) => formPage(req, place, { ...currentFields(place), ...body, captcha: '' }, errors),
    });
  }));

  // ## Staff
  const staffPage = async (req: Request, refused: { id: number; fields: FieldErrors } | null = null): Promise<PageView> => {
    const { flagged, places, truncated } = await suggestions.pending();
    const done = typeof req.query.done === 'string' && /^(applied|dismissed)$/.test(req.query.done) ? req.query.done : null;
    return {
      template: 'place-suggestions/staff.njk',
      ...staffMenu(ctx, STAFF_URL),
      pageTitle: 'Readers’ suggestions',
      flagged,
      flagAt: CLOSED_REPORTS_FLAG,
      places,
      truncated,
      labels: SUGGESTION_KIND_LABELS,
      refused,
      done: refused ? null : done,
    };
  };

  router.get(STAFF_URL, requireStaffPage, page('private', (req) => staffPage(req)));

  for (const action of ['apply', 'dismiss'] as const) {
    router.post(`${STAFF_URL}:id/${action}/`, requireStaffPage, page('private', async (req, res) => {
      const id = idParam(req.params.id);
      return formPost(res, {
        valid: async () => {
          const actor = staffActorOf(req);
          const done = action === 'apply' ? await suggestions.apply(actor, id) : await suggestions.dismiss(actor, id);
          return new PageRedirect(`${STAFF_URL}?done=${action === 'apply' ? 'applied' : 'dismissed'}&place=${done.listingId}`, 303);
        },
        invalid: (fields) => staffPage(req, { id, fields }),
      });
    }));
  }

  return router;
}

