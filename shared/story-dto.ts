import type { LiveCardKind, NewsroomRole, StoryDoc, StoryField, StoryStatus } from './newsroom';

// The newsroom API's shapes (docs/newsroom.md, "The API"), as the server answers them and the
// story editor island reads them; the island's initial state is in shared/islands.ts.

export interface StoryFields {
  name: string;
  slug: string;
  excerpt: string;
  type_id: number | null;
  doc: StoryDoc;
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
}

export interface StoryPermissionsDTO {
  edit: boolean;
  submitForReview: boolean;
  publish: boolean;
  override: boolean;
  delete: boolean;
}

export interface StoryDTO {
  id: number;
  status: StoryStatus;
  version: number;
  fields: StoryFields;
  has_pending: boolean;
  path: string | null;
  /** The published slug (what a slug change would move away from); null before publishing. */
  published_slug: string | null;
  type: { id: number; name: string; slug: string };
  public_url: string | null;
  date_published: string | null;
  scheduled_at: string | null;
  unpublish_at: string | null;
  published_late_minutes: number | null;
  author: { id: number | null; name: string } | null;
  date_updated: string;
  permissions: StoryPermissionsDTO;
}

export interface StoryConflict {
  field: StoryField;
  mine: unknown;
  theirs: unknown;
}

/** 409 from PATCH stories/{id}/: the fields nobody else changed were saved. */
export interface StoryConflictBody {
  detail?: string;
  conflicts: StoryConflict[];
  story: StoryDTO;
}

export interface StoryCheck {
  code: string;
  message: string;
  blocking: boolean;
  field?: StoryField;
}

export interface StoryRevisionSummary {
  id: number;
  version: number;
  reason: string;
  status: StoryStatus;
  author_name: string;
  created_at: string;
}

export interface StoryRevision extends StoryRevisionSummary {
  fields: StoryFields;
  body_html: string;
}

export interface StoryPreviewLink {
  id: number;
  url: string;
  expires_at: string;
}

export interface StoryPresenceOther {
  name: string;
  since: string;
}

export interface LinkTarget {
  kind: string;
  label: string;
  url: string;
}

export interface CardTarget {
  kind: LiveCardKind;
  id: number;
  label: string;
  detail: string;
}

/** What /staff/stories/{id}/ and /staff/stories/new/ print for the story-editor island. */
export interface StoryEditorInitialState {
  story: StoryDTO | null;
  types: Array<{ id: number; name: string }>;
  me: { id: number; name: string; role: NewsroomRole };
}
