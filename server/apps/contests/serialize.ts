import type { ContestDTO } from '../../../shared/dto';
import { absoluteUrl, urls } from '../../../shared/urls';
import { imageUrl } from '../../../shared/format/image-url';

export interface ContestRow {
  id: number;
  title: string;
  name: string;
  description: string;
  prize: string;
  image_key: string | null;
  start_date: Date | string;
  end_date: Date | string;
  date_published: Date | string;
}

/** is_expired is derived from end_date at the time asked, never stored. */
export function toContestDTO(row: ContestRow, siteUrl: string, now: Date = new Date()): ContestDTO {
  const end = new Date(row.end_date);
  return {
    id: row.id,
    title: row.title,
    name: row.name,
    share_url: absoluteUrl(siteUrl, urls.contest(row.name)),
    is_expired: end.getTime() <= now.getTime(),
    end_date: end.toISOString(),
    hub_page_image_url: row.image_key ? absoluteUrl(siteUrl, imageUrl(row.image_key)) : null,
  };
}
