import { createContext, useContext } from 'react';
import type { FeatureFlags } from '../../shared/constants';
import type { Arrival } from './navigation';

// What the page knows about the site that the dashboard's screens read: the feature flags
// (menu items and count boxes), whether Google Calendar is configured, the iPhone app link.
export interface DashboardSettings {
  flags: FeatureFlags;
  calendarEnabled: boolean;
  iosAppUrl: string | null;
}

export const DashboardSettingsContext = createContext<DashboardSettings>({
  flags: { listings: true, events: true, contests: true, videos: true, bestOf: true, photoChallenges: true, patioGuide: true, photoUpload: true, newsOnly: false },
  calendarEnabled: false,
  iosAppUrl: null,
});

export const useDashboardSettings = () => useContext(DashboardSettingsContext);

/** How the member reached the route on screen (navigation.ts): its lists open sorted as last left only when that brings back their place. */
export const RouteArrivalContext = createContext<Arrival>('new');
export const useRouteArrival = () => useContext(RouteArrivalContext);
