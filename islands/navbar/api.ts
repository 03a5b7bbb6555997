import { api } from '../common/api';
import type { PendingAction } from '../common/auth-events';
import type { ProfileDTO } from '../../shared/dto';

// The accounts calls the navbar makes, one line each (spec 2 §7).

export interface LoginPayload {
  email: string;
  password: string;
}

export interface AuthStatus {
  id: number;
  email: string;
  full_name: string;
  last_updates: Record<string, string | null>;
}

export const accountsApi = {
  login: (body: LoginPayload, pending?: PendingAction | null) =>
    api.post<ProfileDTO>('/api/v2/profiles/email-login/', body, pending ? { ...pending } : undefined),
  signup: (body: LoginPayload) => api.post<ProfileDTO>('/api/v2/profiles/email-registration/', body),
  resetPassword: (email: string) => api.post<{ detail: string }>('/api/v2/profiles/reset-password/', { email }),
  appleLogin: (idToken: string) => api.post<ProfileDTO>('/api/v2/profiles/auth/apple/manual-login/', { id_token: idToken }),
  authStatus: () => api.get<AuthStatus>('/api/v2/profiles/hi/'),
};

export type AccountsApi = typeof accountsApi;
