import { LIMITS } from '../../shared/constants';

// The profile photo's rules on the member's side (spec 1 §5): a JPG of at most 6 MB
// (6291456 bytes) is cropped to a square and sent as a JPEG at 0.95 quality; anything else
// opens the size dialog. The crop is drawn 200 ms after the member stops moving it (§9).

export const CROP_JPEG_QUALITY = 0.95;
/** The server keeps a photo at most this size (profiles/avatar.ts); more is wasted upload. */
export const CROP_MAX_SIDE = 400;

export const PHOTO_DIALOG_TITLE = "Sorry, this photo can't be uploaded";
export const photoDialogText = (bytes = LIMITS.profilePhotoBytes) =>
  `We can only accept JPG photos that are ${Math.round(bytes / 1024 / 1024)}mb or less. Please try again with a different image.`;

export type PhotoCheck = 'ok' | 'not-jpeg' | 'too-large';

/** Whether a chosen file may go to the cropper: a JPG (by type, or by name when the browser gives none) within the limit. */
export function checkProfilePhoto(file: Pick<File, 'name' | 'type' | 'size'>): PhotoCheck {
  const jpeg = file.type ? /^image\/(jpeg|jpg|pjpeg)$/i.test(file.type) : /\.jpe?g$/i.test(file.name);
  if (!jpeg) return 'not-jpeg';
  return file.size > LIMITS.profilePhotoBytes ? 'too-large' : 'ok';
}

export interface CropArea {
  x: number;
  y: number;
  width: number;
  height: number;
}

function loadImage(src: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => resolve(img);
    img.onerror = () => reject(new Error('The photo could not be read.'));
    img.src = src;
  });
}

/** Draws the chosen square of the photo (at most CROP_MAX_SIDE) and answers it as a JPEG data URL. */
export async function cropToJpeg(src: string, area: CropArea): Promise<string> {
  const img = await loadImage(src);
  const side = Math.max(1, Math.min(CROP_MAX_SIDE, Math.round(area.width)));
  const canvas = document.createElement('canvas');
  canvas.width = side;
  canvas.height = side;
  const g = canvas.getContext('2d');
  if (!g) throw new Error('The photo could not be cropped.');
  // A JPEG has no transparency: white, not black, where the crop leaves the photo.
  g.fillStyle = '#fff';
  g.fillRect(0, 0, side, side);
  g.drawImage(img, area.x, area.y, area.width, area.height, 0, 0, side, side);
  return canvas.toDataURL('image/jpeg', CROP_JPEG_QUALITY);
}
