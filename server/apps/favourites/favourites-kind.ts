import { isoTime, type FavouriteDTO } from '../saves/dto';
import { defineSaveKind, type SaveKind } from '../saves/save-kind';
import { LISTING_SAVE_ORDERINGS, listingObject, parseListing, savedListingDTO, type SavedListingRow } from '../listings/listing-save-queries';
import { decrementFavouriteCount, incrementFavouriteCount } from './queries';

/** A member's favourite places. listings.favourite_count moves with each one. Built once per context (AppContext.saveKinds). */
export function createFavouritesKind(): SaveKind<FavouriteDTO, SavedListingRow> {
  return defineSaveKind<FavouriteDTO, SavedListingRow>('favourites', {
    ...listingObject,
    table: 'favourites',
    saveColumns: [],
    toDTO: (row, siteUrl) => ({ id: row.save_id, date_created: isoTime(row.save_date_created), listing: savedListingDTO(row, siteUrl) }),
    parseCreate: (body) => ({ objectId: parseListing(body) }),
    async onChange(trx, listingId, change) {
      if (change === 'created') await incrementFavouriteCount(trx, listingId);
      if (change === 'deleted') await decrementFavouriteCount(trx, listingId);
    },
    list: { orderings: LISTING_SAVE_ORDERINGS },
  });
}

// AppContext.saveKinds.favourites is this kind (the registry builds it).
declare module '../../context' {
  interface SaveKinds {
    favourites: SaveKind<FavouriteDTO, SavedListingRow>;
  }
}
