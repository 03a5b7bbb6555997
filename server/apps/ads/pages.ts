import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { adsShown } from '../../config';
import { requireStaffPage } from '../../http/auth-guards';
import { staffMenu, type StaffSection } from '../../http/staff-menu';
import type { RequestRules } from '../../http/request-rules';
import { NotFoundError, ValidationError, type FieldErrors } from '../../http/errors';
import { idParam, validate, textFieldsOf } from '../../http/validate';
import { page, PageRedirect, type PageView } from '../../http/pages/page-view';
import { imageUrl } from '../../../shared/format/image-url';
import { AD_SLOT_NAMES, AD_SLOTS } from '../../../shared/ads';
import { recentStaffActions, recordStaffAction, staffActorOf } from '../staff-audit/audit-log-queries';
import type { ImageUploadService } from '../uploads/service';
import { uploadFormRefusal } from '../uploads/form-refusal';
import { deleteHouseAd, findHouseAd, houseAdStatus, insertHouseAd, listHouseAds, updateHouseAd, type HouseAd } from './house-ad-queries';
import { cityDay, dailyCounts, totalCounts } from './ad-counter-queries';
import { AD_FORM_PATH, AD_IMAGE_FIELD, adFormBody } from './form-body';
import { ALT_MAX, houseAdFormSchema, LINK_MAX, NAME_MAX, WEIGHT_MAX, type HouseAdForm } from './schemas';

// Staff pages for house ads (/staff/ads/): every ad with its totals, a form to add or change
// one (image through the upload pipeline, link, slot, start and end dates, weight) with its
// daily counts, and removal. Like every /staff/ page: staff only (requireStaffPage), plain
// forms with the CSRF token that work without JavaScript, each change written to the audit log
// in its own transaction, and answered with a 303 so a reload never repeats it. A refused form
// comes back 400 with each message beside its field.

const SUBJECT = 'house_ad';
const LIST_URL = '/staff/ads/';

/** The house ads' section of the staff menu (the registry puts every app's in order). */
export const adsStaffSection: StaffSection = { href: LIST_URL, title: 'House ads', text: 'Our own ads in the ad slots: images, links, dates, and their counts.' };
/**
 * The staff house-ad form posts its image as the add-event form does without JavaScript: its
 * CSRF token is the multipart body's first field, compared by adFormBody (form-body.ts) after
 * staffOnly and before the route does anything with the body.
 */
export const adsRequestRules: Partial<RequestRules> = { multipartFirstField: [AD_FORM_PATH] };
const noticeSchema = z.object({ saved: z.string().regex(/^\d{1,9}$/).optional(), deleted: z.literal('1').optional() });



interface FormState {
  ad: HouseAd | null;
  values: Record<string, unknown>;
  errors: FieldErrors | null;
}

export function adsStaffPages(ctx: AppContext, uploads: ImageUploadService): Router {
  const router = Router();
  const staffOnly = requireStaffPage;
  const today = () => cityDay(ctx.now(), ctx.config.city.timeZone);
  const common = (pageTitle: string) => ({
    ...staffMenu(ctx, LIST_URL),
    pageTitle,
    adsOn: adsShown(ctx.config),
    newsOnly: ctx.config.flags.newsOnly,
  });

  const formPage = async ({ ad, values, errors }: FormState): Promise<PageView> => ({
    template: 'ads/staff/form.njk',
    ...common(ad ? `${ad.name} – House ads` : 'New house ad – House ads'),
    ad,
    imageUrl: ad ? imageUrl(ad.image_key) : null,
    values,
    errors,
    slots: AD_SLOT_NAMES.map((name) => ({ name, size: AD_SLOTS[name] })),
    limits: { name: NAME_MAX, link: LINK_MAX, alt: ALT_MAX, weight: WEIGHT_MAX },
    formPath: AD_FORM_PATH,
    imageField: AD_IMAGE_FIELD,
    counts: ad ? await dailyCounts(ctx.db, ad.id) : [],
    history: ad ? await recentStaffActions(ctx.db, { subjectType: SUBJECT, subjectId: ad.id, limit: 20 }) : [],
  });

  router.get(LIST_URL, staffOnly, page('private', async (req) => {
    const [ads, totals] = await Promise.all([listHouseAds(ctx.db), totalCounts(ctx.db)]);
    const day = today();
    return {
      template: 'ads/staff/index.njk',
      ...common('House ads'),
      ads: ads.map((ad) => ({ ...ad, imageUrl: imageUrl(ad.image_key), status: houseAdStatus(ad, day), totals: totals.get(ad.id) ?? { impressions: 0, clicks: 0 } })),
      notice: noticeSchema.safeParse(req.query).data ?? {},
    };
  }));

  router.get('/staff/ads/new/', staffOnly, page('private', () => formPage({ ad: null, values: { weight: '1', starts_on: today() }, errors: null })));

  router.get('/staff/ads/:id/', staffOnly, page('private', async (req) => {
    const ad = await findHouseAd(ctx.db, idParam(req.params.id));
    return ad ? formPage({ ad, values: { ...ad, weight: String(ad.weight), ends_on: ad.ends_on ?? '' }, errors: null }) : null;
  }));

  // One path for adding and changing (the id field says which): the CSRF check of a multipart
  // form without JavaScript is by exact path (form-body.ts).
  router.post(AD_FORM_PATH, staffOnly, ...adFormBody, page('private', (req, res) => savePost(req, res)));

  router.post('/staff/ads/:id/delete/', staffOnly, page('private', async (req) => {
    const id = idParam(req.params.id);
    const who = staffActorOf(req);
    const gone = await ctx.db.transaction(async (trx) => {
      const ad = await findHouseAd(trx, id);
      if (!ad || !(await deleteHouseAd(trx, id))) return false;
      await recordStaffAction(trx, who, { action: 'ad.delete', subjectType: SUBJECT, subjectId: id, detail: { name: ad.name, slot: ad.slot } });
      return true;
    });
    if (!gone) throw new NotFoundError();
    return new PageRedirect(`${LIST_URL}?deleted=1`, 303);
  }));

  async function savePost(req: Request, res: Response): Promise<PageView | PageRedirect | null> {
    const values = textFieldsOf(req.body);
    const id = typeof values.id === 'string' && values.id ? idParam(values.id) : null;
    const existing = id === null ? null : ((await findHouseAd(ctx.db, id)) ?? null);
    if (id !== null && !existing) throw new NotFoundError();
    const file = ((req.files as Express.Multer.File[] | undefined) ?? []).find((f) => f.fieldname === AD_IMAGE_FIELD);
    let form: HouseAdForm | null = null;
    let errors: FieldErrors = {};
    try {
      form = validate(houseAdFormSchema, values);
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      errors = { ...err.fields };
    }
    // A new ad needs its image; a change keeps the old one unless a new file is sent.
    if (!file && !existing) errors.image = ['Choose an image for the ad.'];
    let imageKey = existing?.image_key ?? null;
    let status = 400;
    if (file && form && !Object.keys(errors).length) {
      try {
        const size = AD_SLOTS[form.slot].large;
        imageKey = (await uploads.store(staffActorOf(req).id, file, { box_width: size.width, box_height: size.height, cropping_mode: 'aspect-fit' })).key;
      } catch (err) {
        const refusal = uploadFormRefusal(ctx, req, err, AD_IMAGE_FIELD);
        if (!refusal) throw err;
        errors = { ...errors, ...refusal.errors };
        status = refusal.status;
      }
    }
    if (!form || Object.keys(errors).length || !imageKey) {
      res.status(status);
      return formPage({ ad: existing, values, errors });
    }
    const { id: _ignored, ...fields } = form;
    const who = staffActorOf(req);
    const savedId = await ctx.db.transaction(async (trx) => {
      const row = { ...fields, image_key: imageKey! };
      const adId = existing ? existing.id : await insertHouseAd(trx, row);
      if (existing) await updateHouseAd(trx, existing.id, row);
      await recordStaffAction(trx, who, {
        action: existing ? 'ad.update' : 'ad.create',
        subjectType: SUBJECT,
        subjectId: adId,
        detail: { name: row.name, slot: row.slot, link_url: row.link_url, starts_on: row.starts_on, ends_on: row.ends_on ?? null, weight: row.weight, new_image: Boolean(file) },
      });
      return adId;
    });
    return new PageRedirect(`${LIST_URL}?saved=${savedId}`, 303);
  }

  return router;
}
