// How the dashboard tells the other islands on its page (the navbar) that the member's name or
// photo changed, so the face in the navbar is the new one without a reload. A DOM event keeps
// islands independent, as auth-events.ts does for the login dialog.

export const PROFILE_CHANGED_EVENT = 'guide:profile-changed';

export interface ProfileChange {
  full_name: string;
  avatar_url: string | null;
}

export function announceProfileChange(change: ProfileChange): void {
  if (typeof window === 'undefined') return;
  window.dispatchEvent(new CustomEvent<ProfileChange>(PROFILE_CHANGED_EVENT, { detail: change }));
}

export function onProfileChanged(listener: (change: ProfileChange) => void): () => void {
  const handler = (e: Event) => listener((e as CustomEvent<ProfileChange>).detail);
  window.addEventListener(PROFILE_CHANGED_EVENT, handler);
  return () => window.removeEventListener(PROFILE_CHANGED_EVENT, handler);
}
