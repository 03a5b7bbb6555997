import type { VideoDTO } from '../../../shared/dto';
import { absoluteUrl, urls } from '../../../shared/urls';
import { imageUrl } from '../../../shared/format/image-url';

export interface VideoRow {
  id: number;
  title: string;
  slug: string;
  description: string;
  youtube_code: string;
  image_key: string | null;
  date_published: Date | string;
  duration_seconds: number | null;
  category_id: number | null;
  category_name: string | null;
  category_slug: string | null;
}

export function toVideoDTO(row: VideoRow, siteUrl: string): VideoDTO {
  return {
    id: row.id,
    title: row.title,
    // Without a stored thumbnail, YouTube's own still of the video.
    image_url: row.image_key ? absoluteUrl(siteUrl, imageUrl(row.image_key)) : `https://i.ytimg.com/vi/${row.youtube_code}/hqdefault.jpg`,
    share_url: absoluteUrl(siteUrl, urls.video(row.slug)),
    date_published: new Date(row.date_published).toISOString(),
    youtube_code: row.youtube_code,
    category: row.category_slug ? { name: row.category_name ?? '', get_absolute_url: urls.videoCategory(row.category_slug) } : null,
  };
}
