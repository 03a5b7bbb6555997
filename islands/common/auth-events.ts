// How any island asks the navbar to open the login dialog for a guest's protected action
// (spec 2 §4: remember the action, the object id and the rating to carry through login).
// A DOM event keeps islands independent: each has its own store and bundle.

export const LOGIN_REQUIRED_EVENT = 'guide:login-required';

export interface PendingAction {
  post_authenticate_action: string;
  object_id: number;
  rating?: number;
}

export interface LoginRequest {
  pendingAction?: PendingAction;
  redirect?: string;
  signup?: boolean;
}

export function requestLogin(detail: LoginRequest = {}): void {
  window.dispatchEvent(new CustomEvent<LoginRequest>(LOGIN_REQUIRED_EVENT, { detail }));
}

export function onLoginRequested(listener: (req: LoginRequest) => void): () => void {
  const handler = (e: Event) => listener((e as CustomEvent<LoginRequest>).detail ?? {});
  window.addEventListener(LOGIN_REQUIRED_EVENT, handler);
  return () => window.removeEventListener(LOGIN_REQUIRED_EVENT, handler);
}
