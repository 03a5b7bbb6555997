import { api } from '../common/api';
import { authStatusOnce } from '../common/auth-status';
import type { PendingAction } from '../common/auth-events';
import type { AuthStatusDTO, ProfileDTO } from '../../shared/dto';

// The accounts calls the navbar makes, one line each (spec 2 §7).

export interface LoginPayload {
  email: string;
  password: string;
}

export type AuthStatus = AuthStatusDTO;

export const accountsApi = {
  login: (body: LoginPayload, pending?: PendingAction | null) =>
    api.post<ProfileDTO>('/api/v2/profiles/email-login/', body, pending ? { ...pending } : undefined),
  signup: (body: LoginPayload, pending?: PendingAction | null) =>
    api.post<ProfileDTO>('/api/v2/profiles/email-registration/', body, pending ? { ...pending } : undefined),
  resetPassword: (email: string) => api.post<{ detail: string }>('/api/v2/profiles/reset-password/', { email }),
  appleLogin: (idToken: string) => api.post<ProfileDTO>('/api/v2/profiles/auth/apple/manual-login/', { id_token: idToken }),
  authStatus: authStatusOnce,
};

export type AccountsApi = typeof accountsApi;
