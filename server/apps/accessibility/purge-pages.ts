import type { AppContext } from '../../context';
import { urls } from '../../../shared/urls';
import { placeKeys } from '../../http/surrogate-keys';
import { listingUrlSlugs } from './queries';

/**
 * After a report or a staff decision, every process forgets its copies of the place's page
 * and its accessibility API answer (ctx.changes: this process at once, the others when the
 * notice arrives), so the next reader anywhere sees the new counts. The edge drops the place's
 * keys: its pages, and the hubs and lists that filter by accessibility.
 */
export async function purgeListingAccessibilityPages(ctx: Pick<AppContext, 'db' | 'changes'>, listingId: number): Promise<void> {
  const listing = await listingUrlSlugs(ctx.db, listingId);
  if (!listing) return;
  await ctx.changes.announce({
    subject: `place-accessibility:${listingId}`,
    paths: [urls.listing(listing.type_slug, listing.slug, listingId), `/api/v2/listings/${listingId}/accessibility/`],
    keys: placeKeys({ id: listingId, typeSlug: listing.type_slug, neighbourhoodId: listing.neighbourhood_id }),
  });
}
