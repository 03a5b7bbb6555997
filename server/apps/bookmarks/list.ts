import type { OrderTerms, SaveKind } from '../saves/kind';
import { BY_DATE_SAVED } from '../saves/ordering';

/** How a bookmark list pages and sorts: recently saved first, server_time on every page. */
export function bookmarkList(pageSize: number, orderings: Record<string, OrderTerms>): SaveKind<unknown>['list'] {
  return { pageSize, orderings: { ...BY_DATE_SAVED, ...orderings }, defaultOrdering: '-date_created', serverTime: true };
}
