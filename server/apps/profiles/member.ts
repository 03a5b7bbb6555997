import type { NewsletterSettings } from '../../../shared/constants';
import type { NewsroomRole } from '../../../shared/newsroom';

// The signed-in member as the server sees it (a profiles row without secrets).
export interface Member extends NewsletterSettings {
  id: number;
  email: string;
  full_name: string;
  first_name: string;
  last_name: string;
  avatar: string | null;
  is_staff: boolean;
  /** The newsroom role (shared/newsroom.ts), or null: no newsroom page or call. */
  newsroom_role: NewsroomRole | null;
  is_active: boolean;
  sync_bookmarked_events_to_google_calendar: boolean | null;
  last_updates: Record<string, string>;
  date_joined: Date;
  last_login: Date | null;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    // Passport's req.user is our member.
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type
    interface User extends Member {}
  }
}
