import type { Response } from 'express';
import type { Db } from '../../db';
import { purgeCachedPages } from '../../http/guest-response-cache';
import { urls } from '../../../shared/urls';
import { listingUrlSlugs } from './queries';

/**
 * After a report or a staff decision, this process forgets its copies of the place's page and
 * its accessibility API answer, so the next reader sees the new counts (other processes' and
 * shared caches' copies run out within their max-age, as for any edit).
 */
export async function purgeListingAccessibilityPages(db: Db, res: Response, listingId: number): Promise<void> {
  const listing = await listingUrlSlugs(db, listingId);
  if (!listing) return;
  purgeCachedPages(res, [urls.listing(listing.type_slug, listing.slug, listingId), `/api/v2/listings/${listingId}/accessibility/`]);
}
