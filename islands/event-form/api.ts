import { api } from '../common/api';
import type { ImageUploadResponse, VenueSuggestion } from './types';

// The form's calls: the venue type-ahead (listings, and addresses from the geocoder), the event image upload (multipart, box 300x200,
// aspect-fill) and the form itself (multipart, answered in JSON for the island).

export interface EventFormApi {
  searchListings(keywords: string): Promise<VenueSuggestion[]>;
  /** Street addresses our own data can place (GET /api/v2/geocode/, its address answers only). */
  searchAddresses(text: string): Promise<VenueSuggestion[]>;
  uploadImage(file: File): Promise<ImageUploadResponse>;
  submit(entries: Array<[string, string]>): Promise<{ success_url: string }>;
}

export const eventFormApi: EventFormApi = {
  async searchListings(keywords) {
    const res = await api.get<{ results: Array<{ id: number; name: string; address?: string | null }> }>('/api/v2/listings/', { keywords, limit: 8 });
    return res.results.map((l) => ({ kind: 'place' as const, id: l.id, name: l.name, address: l.address ?? '' }));
  },
  async searchAddresses(text) {
    const res = await api.get<{ results: Array<{ label: string; kind: string }> }>('/api/v2/geocode/', { q: text });
    return res.results.filter((r) => r.kind === 'address').map((r) => ({ kind: 'address' as const, id: 0, name: r.label, address: r.label }));
  },
  uploadImage(file) {
    const body = new FormData();
    body.append('box_width', '300');
    body.append('box_height', '200');
    body.append('cropping_mode', 'aspect-fill');
    body.append('file', file, file.name);
    return api.postForm<ImageUploadResponse>('/streams/image-upload/', body);
  },
  submit(entries) {
    const body = new FormData();
    for (const [k, v] of entries) body.append(k, v);
    return api.postForm<{ success_url: string }>('/events/add/', body);
  },
};
