import type { PendingDeletionNotice } from '../../context';
import { mailDay, purgeTime } from './deletion-emails';
import { findPendingDeletion } from './queries';

// What the login forms (page and API) tell a member who typed the right password for an
// account they closed for deletion: that it is closed, when it goes, and that the undo link is
// in the email of the day they asked. Accounts calls it through the context (it sits below).
// Past the undo window (the purge not run yet) there is nothing to undo: no notice.

export const pendingDeletionNotice: PendingDeletionNotice = async ({ db, config, now }, memberId) => {
  const row = await findPendingDeletion(db, memberId, now());
  if (!row) return undefined;
  const tz = config.city.timeZone;
  return (
    `This account is closed: you asked us to delete it, and it will be deleted for good on ${purgeTime(new Date(row.purge_after), tz)}. ` +
    `To keep it, open the link in the email we sent you on ${mailDay(new Date(row.requested_at), tz)}.`
  );
};
