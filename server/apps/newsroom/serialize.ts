import type { StoryDTO } from '../../../shared/story-dto';
import type { StoryDoc } from '../../../shared/newsroom';
import { absoluteUrl } from '../../../shared/urls';
import type { storyPermissions } from '../../../shared/newsroom';
import { workingValues, type StoryRow } from './queries';

export type { StoryDTO };

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

/** A story's working copy (its columns with a published story's pending changes over them), typed. */
export function workingFields(row: StoryRow): StoryDTO['fields'] {
  const v = workingValues(row);
  return {
    name: String(v.name ?? ''),
    slug: String(v.slug ?? ''),
    excerpt: String(v.excerpt ?? ''),
    type_id: Number(v.type_id),
    doc: v.doc as StoryDoc,
    image_key: (v.image_key as string | null) ?? null,
    image_alt: String(v.image_alt ?? ''),
    image_credit: String(v.image_credit ?? ''),
    seo_title: String(v.seo_title ?? ''),
    seo_description: String(v.seo_description ?? ''),
    canonical_url: String(v.canonical_url ?? ''),
    social_image_key: (v.social_image_key as string | null) ?? null,
    is_sponsored: Boolean(v.is_sponsored),
    sponsor_name: String(v.sponsor_name ?? ''),
    author_name: String(v.author_name ?? ''),
  };
}

export function toStoryDTO(row: StoryRow, siteUrl: string, permissions: ReturnType<typeof storyPermissions>, now: Date): StoryDTO {
  const everPublished = row.status === 'published' || row.status === 'unpublished';
  const live = row.status === 'published' && new Date(row.date_published).getTime() <= now.getTime();
  return {
    id: row.id,
    status: row.status,
    version: row.version,
    fields: workingFields(row),
    has_pending: row.status === 'published' && Object.keys(row.pending).length > 0,
    path: row.path,
    published_slug: everPublished ? row.slug : null,
    public_url: live ? absoluteUrl(siteUrl, row.path) : null,
    type: { id: row.type_id, name: row.type_name, slug: row.type_slug },
    date_published: everPublished ? iso(row.date_published) : null,
    scheduled_at: iso(row.scheduled_at),
    unpublish_at: iso(row.unpublish_at),
    published_late_minutes: row.published_late_minutes,
    author: { id: row.author_id, name: row.author_full_name || row.author_name },
    date_updated: new Date(row.date_updated).toISOString(),
    permissions,
  };
}
