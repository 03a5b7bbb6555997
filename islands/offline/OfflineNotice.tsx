import { useSyncExternalStore } from 'react';
import { longDate } from '../../shared/format/date';
import { siteConfig } from '../common/initial-state';
import { getOfflineStatus, subscribeOfflineStatus } from './status';

/** 'Offline — saved on November 24, 2026' above the dashboard's lists while they come from this device. */
export function OfflineNotice() {
  const { savedAt, queued, notice } = useSyncExternalStore(subscribeOfflineStatus, getOfflineStatus, getOfflineStatus);
  if (!savedAt && !notice && !queued) return null;
  const timeZone = siteConfig().timeZone || 'Canada/Eastern';
  return (
    <div className="dash-offline" role="status">
      {savedAt && <p className="dash-offline__saved">Offline — saved on {longDate(savedAt, timeZone)}</p>}
      {queued > 0 && (
        <p>
          {queued === 1 ? '1 change' : `${queued} changes`} will be sent when you're back online.
        </p>
      )}
      {notice && <p>{notice}</p>}
    </div>
  );
}
