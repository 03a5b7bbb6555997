import type { PhotoDTO } from '../../../shared/dto';
import { absoluteUrl, urls } from '../../../shared/urls';
import { imageUrl } from '../../../shared/format/image-url';
import { listingPath } from '../listings/serialize';

export interface PhotoRow {
  id: number;
  title: string;
  description: string;
  image_key: string;
  width: number;
  height: number;
  creation_date: Date | string;
  instagram_user: string | null;
  profile_id: number | null;
  listing_id: number | null;
  listing_name: string | null;
  listing_slug: string | null;
  listing_type_slug: string | null;
  /** The author's profile, when it is active. */
  author_id: number | null;
  author_full_name: string | null;
  author_avatar: string | null;
}

export function photoPath(row: PhotoRow): string {
  if (row.listing_id && row.listing_slug && row.listing_type_slug) return urls.photo(row.listing_type_slug, row.listing_slug, row.listing_id, row.id);
  return `/photos/${row.id}/`;
}

export function toPhotoDTO(row: PhotoRow, siteUrl: string): PhotoDTO {
  const sharePath = photoPath(row);
  return {
    id: row.id,
    prism_image_url: absoluteUrl(siteUrl, imageUrl(row.image_key)),
    title: row.title,
    description: row.description,
    listing:
      row.listing_id && row.listing_slug && row.listing_type_slug
        ? { id: row.listing_id, name: row.listing_name ?? '', share_url: absoluteUrl(siteUrl, listingPath({ type_slug: row.listing_type_slug, slug: row.listing_slug, id: row.listing_id })) }
        : null,
    creation_date: new Date(row.creation_date).toISOString(),
    share_path: sharePath,
    share_url: absoluteUrl(siteUrl, sharePath),
    profile: row.author_id ? { full_name: row.author_full_name ?? '', avatar_url: row.author_avatar ? absoluteUrl(siteUrl, imageUrl(row.author_avatar, 'avatar')) : null } : null,
    instagram_user: row.instagram_user,
  };
}
