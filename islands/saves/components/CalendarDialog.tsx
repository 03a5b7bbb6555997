import { Dialog } from '../../common/Dialog';
import { useSavesDispatch } from '../hooks';
import { profile } from '../slices/profile';

// The save-to-calendar question, asked once when the member's preference is unset (spec 1 §4
// "Event save"): the answer is stored on the profile and used for this and later saves.

export function CalendarDialog() {
  const dispatch = useSavesDispatch();
  const answer = (choice: boolean | null) => dispatch(profile.calendarAnswered({ choice }));
  return (
    <Dialog title="Save to your Google Calendar?" onClose={() => answer(null)} className="calendar-dialog">
      <p>Do you want the events you save to be added to your Google Calendar too? You can change this later under Events on your dashboard (Calendar Settings).</p>
      <div className="dialog__actions">
        <button type="button" className="button" onClick={() => answer(true)}>
          Yes
        </button>{' '}
        <button type="button" className="button button--secondary" onClick={() => answer(false)}>
          No
        </button>
      </div>
    </Dialog>
  );
}
