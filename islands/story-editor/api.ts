import { api, CSRF_COOKIE, readCookie } from '../common/api';
import type { LiveCardKind } from '../../shared/newsroom';
import type {
  CardTarget, LinkTarget, StoryCheck, StoryDTO, StoryFields, StoryPresenceOther, StoryPreviewLink, StoryRevision, StoryRevisionSummary,
} from '../../shared/story-dto';

// The editor's calls, one per endpoint of docs/newsroom.md ("The API"), plus the upload
// pipeline. An interface so tests hand the island a fake.

const BASE = '/api/v2/staff';
const story = (id: number) => `${BASE}/stories/${id}/`;

export interface UploadedImage {
  uploaded_image_url: string;
}

export interface StoryEditorApi {
  create(fields: Partial<StoryFields>): Promise<StoryDTO>;
  save(id: number, body: { base_version: number; fields: Partial<StoryFields>; explicit?: boolean }): Promise<StoryDTO>;
  submit(id: number): Promise<StoryDTO>;
  publish(id: number, overrideReason?: string): Promise<StoryDTO>;
  schedule(id: number, publishAt: string): Promise<StoryDTO>;
  unpublish(id: number, at?: string): Promise<StoryDTO>;
  unschedule(id: number): Promise<StoryDTO>;
  checks(id: number): Promise<StoryCheck[]>;
  revisions(id: number): Promise<StoryRevisionSummary[]>;
  revision(id: number, rid: number): Promise<StoryRevision>;
  restoreRevision(id: number, rid: number): Promise<StoryDTO>;
  previews(id: number): Promise<StoryPreviewLink[]>;
  createPreview(id: number): Promise<StoryPreviewLink>;
  revokePreview(id: number, pid: number): Promise<void>;
  presence(id: number): Promise<StoryPresenceOther[]>;
  /** "I left": sent as the page goes away, so it must outlive it (keepalive). */
  leave(id: number): void;
  linkTargets(q: string): Promise<LinkTarget[]>;
  cardTargets(kind: LiveCardKind, q: string): Promise<CardTarget[]>;
  /** An image through the upload pipeline; answers its media key. */
  uploadImage(file: File): Promise<string>;
  /**
   * The hook for pictures pasted from other sites: the server copies the picture at `url` into
   * the media store and answers its key, or 400 `{url: [why]}`.
   */
  fetchPastedImage(id: number, url: string): Promise<string>;
}

/** The media key of an uploaded image: its URL's part after /media/. */
export function mediaKeyOf(uploadedUrl: string): string {
  const i = uploadedUrl.indexOf('/media/');
  const key = i >= 0 ? uploadedUrl.slice(i + '/media/'.length) : uploadedUrl;
  return decodeURIComponent(key.split('?')[0]);
}

/** Lists may come bare or as DRF's `{results}`. */
const listOf = <T>(body: T[] | { results: T[] }): T[] => (Array.isArray(body) ? body : body.results);

export const storyEditorApi: StoryEditorApi = {
  create: (fields) => api.post<StoryDTO>(`${BASE}/stories/`, { fields }),
  save: (id, body) => api.patch<StoryDTO>(story(id), body),
  submit: (id) => api.post<StoryDTO>(`${story(id)}submit/`),
  publish: (id, overrideReason) => api.post<StoryDTO>(`${story(id)}publish/`, overrideReason ? { override_reason: overrideReason } : {}),
  schedule: (id, publishAt) => api.post<StoryDTO>(`${story(id)}schedule/`, { publish_at: publishAt }),
  unpublish: (id, at) => api.post<StoryDTO>(`${story(id)}unpublish/`, at ? { at } : {}),
  unschedule: (id) => api.post<StoryDTO>(`${story(id)}unschedule/`),
  checks: async (id) => (await api.get<{ checks: StoryCheck[] }>(`${story(id)}checks/`)).checks,
  revisions: async (id) => listOf(await api.get<StoryRevisionSummary[] | { results: StoryRevisionSummary[] }>(`${story(id)}revisions/`)),
  revision: (id, rid) => api.get<StoryRevision>(`${story(id)}revisions/${rid}/`),
  restoreRevision: (id, rid) => api.post<StoryDTO>(`${story(id)}revisions/${rid}/restore/`),
  previews: async (id) => listOf(await api.get<StoryPreviewLink[] | { results: StoryPreviewLink[] }>(`${story(id)}previews/`)),
  createPreview: (id) => api.post<StoryPreviewLink>(`${story(id)}previews/`),
  revokePreview: async (id, pid) => {
    await api.delete(`${story(id)}previews/${pid}/`);
  },
  presence: async (id) => (await api.post<{ others: StoryPresenceOther[] }>(`${story(id)}presence/`)).others,
  leave: (id) => {
    void fetch(`${story(id)}presence/`, {
      method: 'DELETE',
      keepalive: true,
      credentials: 'same-origin',
      headers: { Accept: 'application/json', 'X-CSRFToken': readCookie(CSRF_COOKIE) ?? '' },
    }).catch(() => undefined);
  },
  linkTargets: async (q) => listOf(await api.get<LinkTarget[] | { results: LinkTarget[] }>(`${BASE}/link-targets/`, { q })),
  cardTargets: async (kind, q) => listOf(await api.get<CardTarget[] | { results: CardTarget[] }>(`${BASE}/card-targets/`, { kind, q })),
  uploadImage: async (file) => {
    const body = new FormData();
    // The story's pictures keep their proportions; the box is the largest rendition asked for.
    body.append('box_width', '1080');
    body.append('box_height', '720');
    body.append('cropping_mode', 'aspect-fit');
    body.append('image', file, file.name);
    return mediaKeyOf((await api.postForm<UploadedImage>('/streams/image-upload/', body)).uploaded_image_url);
  },
  fetchPastedImage: async (id, url) => (await api.post<{ key: string }>(`${story(id)}fetch-image/`, { url })).key,
};
