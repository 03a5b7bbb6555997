// Spec 2 §2 "Photo viewer": on extra-small screens swipe right goes next and swipe left goes
// previous. That is the opposite of the lightbox library's drag (the photo follows the finger),
// so its own swipe is off and this reads the gesture: a mostly horizontal move of 50 px or more.

export const SWIPE_MIN_PX = 50;

/** The photo a swipe leads to, or null (too short, mostly vertical, or past either end). */
export function swipeTarget(dx: number, dy: number, index: number, count: number): number | null {
  if (Math.abs(dx) < SWIPE_MIN_PX || Math.abs(dx) <= Math.abs(dy)) return null;
  const next = dx > 0 ? index + 1 : index - 1;
  return next >= 0 && next < count ? next : null;
}
