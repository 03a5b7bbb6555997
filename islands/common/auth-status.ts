import { api } from './api';
import type { AuthStatusDTO } from '../../shared/dto';

// The navbar and the saves island both need to know, as a page loads, who is signed in and
// when each kind of save last changed. They share one GET /api/v2/profiles/hi/ per page load
// instead of asking twice; a failure (401 for a guest) is shared too.
let pending: Promise<AuthStatusDTO> | null = null;

export function authStatusOnce(): Promise<AuthStatusDTO> {
  pending ??= api.get<AuthStatusDTO>('/api/v2/profiles/hi/');
  return pending;
}
