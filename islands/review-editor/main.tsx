import { initialStateFor } from '../common/initial-state';
import { mountIsland } from '../common/mount';
import { ReviewEditor } from './ReviewEditor';
import { reviewForm } from './review-form';
import './review-editor.css';

// /staff/places/{id}/review/ (templates/places-desk/review.njk): the newsroom's body editor over
// the review's textarea. Printed as {% call island('review-editor') %} inside the form, after
// the textarea; without this island (no JavaScript, a failed load) the textarea is the field.
const init = initialStateFor('review-editor');
if (init) {
  mountIsland('review-editor', (el) => {
    const form = reviewForm(el);
    return form ? <ReviewEditor init={init} form={form} /> : null;
  });
}
