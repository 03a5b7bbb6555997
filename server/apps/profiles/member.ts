// The signed-in member as the server sees it (a profiles row without secrets).
export interface Member {
  id: number;
  email: string;
  full_name: string;
  first_name: string;
  last_name: string;
  avatar: string | null;
  is_staff: boolean;
  is_active: boolean;
  sync_bookmarked_events_to_google_calendar: boolean | null;
  settings_receive_newsletter_news: boolean;
  settings_receive_newsletter_events: boolean;
  settings_receive_newsletter_foods: boolean;
  settings_receive_newsletter_real_estate: boolean;
  settings_receive_newsletter_travel: boolean;
  settings_receive_newsletter_photo_challenge_alerts: boolean;
  settings_receive_newsletter_promotions: boolean;
  settings_receive_newsletter_contests: boolean;
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
