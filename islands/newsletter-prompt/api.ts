import { api } from '../common/api';

// The one call: POST /api/v2/profiles/guest-newsletters/ (spec 2 §7); failure reads email[0].
export interface GuestNewsletterBody {
  email: string;
  [newsletter: string]: string | boolean;
}

export interface NewsletterPromptApi {
  subscribe(body: GuestNewsletterBody): Promise<unknown>;
}

export const newsletterPromptApi: NewsletterPromptApi = {
  subscribe: (body) => api.post('/api/v2/profiles/guest-newsletters/', body),
};
