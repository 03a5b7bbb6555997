import { useDispatch, useSelector } from 'react-redux';
import { Dialog } from '../../common/Dialog';
import { eventForm } from '../slice';
import type { EventFormRootState } from '../store';

// The submit button, and the question a submission with no image asks first (add one, or
// go on without).
export function SubmitBar({ onAddImage, onSubmitWithoutImage }: { onAddImage: () => void; onSubmitWithoutImage: () => void }) {
  const dispatch = useDispatch();
  const s = useSelector((r: EventFormRootState) => r.eventForm);
  return (
    <>
      <div className="form-actions">
        <button type="submit" disabled={s.submitting || s.image.status === 'uploading'}>
          {s.submitting ? 'Submitting...' : 'Submit event'}
        </button>
      </div>

      {s.confirmImage && (
        <Dialog title="Add an image to get noticed" onClose={() => dispatch(eventForm.imageConfirmClosed())}>
          <p>Events with an image get far more attention. Would you like to add one before submitting?</p>
          <div className="form-actions">
            <button
              type="button"
              onClick={() => {
                dispatch(eventForm.imageConfirmClosed());
                onAddImage();
              }}
            >
              I want to add an image
            </button>
            <button type="button" className="button--secondary" onClick={onSubmitWithoutImage}>
              Continue with no image
            </button>
          </div>
        </Dialog>
      )}
    </>
  );
}
