import { checkFirstFieldToken } from '../../http/csrf';
import { uploadBodySlot } from '../media/image-work';
import { imageUploadParser } from '../uploads/service';

// The staff ad form's body: multipart (its image goes through the upload pipeline), posted
// without JavaScript. The CSRF middleware cannot read a multipart token, so it leaves it to
// this route (pages.ts declares AD_FORM_PATH in adsRequestRules.multipartFirstField): the token
// field is compared here, after staffOnly and before the route does anything with the body. The
// body waits for an upload slot and is bounded by the upload parser's limits.

export const AD_FORM_PATH = '/staff/ads/save/';
/** The file input's name. */
export const AD_IMAGE_FIELD = 'image';

export const adFormBody = [uploadBodySlot, imageUploadParser, checkFirstFieldToken];
