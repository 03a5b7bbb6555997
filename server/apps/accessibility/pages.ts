import { Router, type Request } from 'express';
import type { AppContext } from '../../context';
import { memberId, requireMemberPage } from '../../http/auth-guards';
import { NotFoundError, type FieldErrors } from '../../http/errors';
import { formBodyOf, idParam } from '../../http/validate';
import { PageRedirect, page, type PageView } from '../../http/pages/page-view';
import { formPost } from '../../http/pages/form-post';
import { urls } from '../../../shared/urls';
import { ACCESSIBILITY_ATTRIBUTES, ACCESSIBILITY_NOTE_MAX, isAccessibilityAttribute } from '../../../shared/accessibility';
import { listingAccessibility, memberReports, reportPageListing } from './queries';
import { purgeListingAccessibilityPages } from './purge-pages';
import { reportSchema } from './schemas';
import type { AccessibilityService } from './service';

// /places/{id}/accessibility/: the member's own page for a place's accessibility, a plain form
// per attribute that works without JavaScript. The listing page is the same for everybody, so
// it only links here; this page shows the member's current answers and is never shared
// (private, no-store; guests are sent to log in and come back). A refused report comes back
// with the message beside that attribute's form (400).

type FormErrors = { attribute: string; fields: FieldErrors; values: Record<string, unknown> };

export function accessibilityPages(ctx: AppContext, accessibility: AccessibilityService): Router {
  const router = Router();
  const path = '/places/:id/accessibility/';

  const reportPage = async (req: Request, errors: FormErrors | null = null): Promise<PageView> => {
    const id = idParam(req.params.id);
    const listing = await reportPageListing(ctx.db, id);
    if (!listing) throw new NotFoundError();
    const [attributes, mine] = await Promise.all([listingAccessibility(ctx.db, id), memberReports(ctx.db, memberId(req), id)]);
    const saved = typeof req.query.saved === 'string' && isAccessibilityAttribute(req.query.saved) ? req.query.saved : null;
    const listingUrl = urls.listing(listing.type_slug, listing.slug, listing.id);
    return {
      template: 'places/accessibility.njk',
      // After a save, the way back is a URL no browser or shared cache holds yet: the listing
      // page is public for 60 s, and the member would otherwise see the counts without their answer.
      listing: { id: listing.id, name: listing.name, url: saved && !errors ? `${listingUrl}?reported=${ctx.now().getTime().toString(36)}#accessibility` : listingUrl },
      rows: ACCESSIBILITY_ATTRIBUTES.map((a, i) => ({ ...a, summary: attributes[i], mine: mine.find((r) => r.attribute === a.key) ?? null })),
      errors,
      saved: errors ? null : saved,
      noteMax: ACCESSIBILITY_NOTE_MAX,
      pageTitle: `Accessibility of ${listing.name}`,
      pageDescription: `What you found at ${listing.name}: step-free entrance, washroom, seating and more.`,
    };
  };

  router.get(path, requireMemberPage, page('private', (req) => reportPage(req)));
  router.post(path, requireMemberPage, accessibility.rateLimit, page('private', async (req, res) => {
    const id = idParam(req.params.id);
    return formPost(res, {
      schema: reportSchema,
      body: formBodyOf(req.body),
      valid: async (input) => {
        await accessibility.report(memberId(req), id, input);
        await purgeListingAccessibilityPages(ctx, id);
        return new PageRedirect(`/places/${id}/accessibility/?saved=${input.attribute}#${input.attribute}`, 303);
      },
      invalid: (fields, values) => reportPage(req, { attribute: typeof values.attribute === 'string' ? values.attribute : '', fields, values }),
    });
  }));
  return router;
}
