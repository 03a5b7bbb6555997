import type { StoryDTO } from '../../../shared/story-dto';
import type { StoryDoc } from '../../../shared/newsroom';
import { absoluteUrl } from '../../../shared/urls';
import type { storyPermissions } from '../../../shared/newsroom';
import { STORY_FIELDS, type StoryField, type StoryStatus } from '../../../shared/newsroom';

export type { StoryDTO };

export interface StoryRow {
  id: number;
  status: StoryStatus;
  version: number;
  field_versions: Partial<Record<StoryField, number>>;
  pending: Partial<Record<StoryField, unknown>>;
  name: string;
  slug: string;
  path: string;
  excerpt: string;
  type_id: number;
  doc: unknown;
  body_html: string | null;
  body: string;
  image_key: string | null;
  image_alt: string;
  image_credit: string;
  seo_title: string;
  seo_description: string;
  canonical_url: string;
  social_image_key: string | null;
  is_sponsored: boolean;
  sponsor_name: string;
  author_name: string;
  author_id: number | null;
  date_published: Date;
  scheduled_at: Date | null;
  unpublish_at: Date | null;
  published_late_minutes: number | null;
  date_updated: Date;
  date_created: Date;
  last_revision_at: Date | null;
  is_slideshow: boolean;
  is_featured: boolean;
  type_slug: string;
  type_name: string;
  author_full_name: string | null;
}

export type StoryValues = { [F in StoryField]: unknown };

/** The values an editor sees: the columns, with a published story's saved changes over them. */
export function workingValues(row: StoryRow): StoryValues {
  const out = {} as StoryValues;
  for (const f of STORY_FIELDS) out[f] = Object.prototype.hasOwnProperty.call(row.pending, f) ? row.pending[f] : (row as unknown as Record<string, unknown>)[f];
  return out;
}

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
