import { NEWSLETTER_SETTING_KEYS, type NewsletterSettings } from '../../../shared/constants';
import type { ProfileDTO } from '../../../shared/dto';
import { imageUrl } from '../../../shared/format/image-url';
import { LAST_UPDATE_KEYS, type LastUpdateKey } from '../../../shared/save-kinds';
import type { Member } from './member';

/** The profile as the API answers it (spec 1 §3): never the password hash or social ids. */
export function profileDTO(m: Member): ProfileDTO {
  const settings = Object.fromEntries(NEWSLETTER_SETTING_KEYS.map((k) => [k, Boolean(m[k])])) as NewsletterSettings;
  return {
    id: m.id,
    email: m.email,
    full_name: m.full_name,
    first_name: m.first_name,
    last_name: m.last_name,
    avatar: m.avatar,
    avatar_url: m.avatar ? imageUrl(m.avatar, 'avatar') : null,
    sync_bookmarked_events_to_google_calendar: m.sync_bookmarked_events_to_google_calendar,
    ...settings,
  };
}

/** The kinds whose cached id maps the islands keep (spec 1 §3 auth status): every save kind. */
export const LAST_UPDATE_KINDS = LAST_UPDATE_KEYS;

export function lastUpdatesDTO(m: Member): Record<LastUpdateKey, string | null> {
  const stored = (m.last_updates ?? {}) as Record<string, string>;
  return Object.fromEntries(LAST_UPDATE_KINDS.map((k) => [k, stored[k] ?? null])) as Record<LastUpdateKey, string | null>;
}
