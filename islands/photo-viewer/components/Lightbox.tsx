import { useCallback, useEffect, useMemo, useSyncExternalStore } from 'react';
import YarlLightbox, { type GenericSlide, type Slide } from 'yet-another-react-lightbox';
import 'yet-another-react-lightbox/styles.css';
import '../photo-viewer.css';
import { BREAKPOINTS } from '../../../shared/constants';
import { longDate } from '../../../shared/format/date';
import { siteConfig } from '../../common/initial-state';
import { useViewerDispatch, useViewerSelector } from '../hooks';
import { pageOffsetOf, selectActivePhoto, selectPosition, viewer } from '../slice';
import { swipeTarget } from '../swipe';
import { pictureUrl } from '../../common/picture-url';

// The open viewer: yet-another-react-lightbox does the modal (the rest of the page inert and
// hidden from screen readers, focus moved in and given back on close), Esc, ← and →, and the
// modal; Tab wraps around its buttons here (inert alone lets Tab leave for the browser's UI). It stops at both ends (finite), and the ends' disabled Previous/Next are hidden by
// photo-viewer.css. Swiping is on for extra-small screens only, the spec's way round (spec 2 §2, swipe.ts). Photos not read
// yet are placeholders until the photos API answers.

export interface PendingPhotoSlide extends GenericSlide {
  type: 'photo-pending';
  failed: boolean;
}

declare module 'yet-another-react-lightbox' {
  interface SlideTypes {
    'photo-pending': PendingPhotoSlide;
  }
}

const XS_QUERY = `(max-width: ${BREAKPOINTS.xSmallMax}px)`;

function subscribeXs(onChange: () => void) {
  const mq = window.matchMedia(XS_QUERY);
  mq.addEventListener('change', onChange);
  return () => mq.removeEventListener('change', onChange);
}

function useExtraSmallScreen(): boolean {
  return useSyncExternalStore(subscribeXs, () => window.matchMedia(XS_QUERY).matches);
}

/** 'N of M' and the open photo's caption, over the lightbox. */
function ViewerChrome() {
  const position = useViewerSelector(selectPosition);
  const photo = useViewerSelector(selectActivePhoto);
  const listingName = useViewerSelector((s) => s.viewer.listing.name);
  return (
    <>
      <p className="photo-viewer__position" aria-live="polite">
        {position?.label}
      </p>
      {photo && (
        <div className="photo-viewer__caption">
          <h2 className="photo-viewer__title">{photo.title || `Photo of ${listingName}`}</h2>
          {photo.description && <p className="photo-viewer__description">{photo.description}</p>}
          <p className="photo-viewer__meta">
            {photo.credit && <span>Photo by {photo.credit} · </span>}
            <time dateTime={photo.creation_date}>{longDate(photo.creation_date, siteConfig().timeZone)}</time>
          </p>
        </div>
      )}
    </>
  );
}

function PendingSlide({ failed }: { failed: boolean }) {
  return (
    <p className="photo-viewer__pending" role="status">
      {failed ? 'This photo could not be loaded. Please check your connection and try again.' : 'Loading photo…'}
    </p>
  );
}

const FOCUSABLE = 'button:not([disabled]), a[href], [tabindex]:not([tabindex="-1"])';

/** Tab and Shift+Tab go round the viewer's controls instead of leaving the page. */
function useTabWrap() {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Tab') return;
      const root = document.querySelector<HTMLElement>('.photo-viewer[role="dialog"]');
      if (!root) return;
      const items = Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((el) => el.offsetParent !== null);
      if (!items.length) return;
      const first = items[0];
      const last = items[items.length - 1];
      const inside = root.contains(document.activeElement);
      if (e.shiftKey && (!inside || document.activeElement === first || document.activeElement === root.querySelector('.yarl__container'))) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && (!inside || document.activeElement === last)) {
        e.preventDefault();
        first.focus();
      }
    };
    document.addEventListener('keydown', onKey, true);
    return () => document.removeEventListener('keydown', onKey, true);
  }, []);
}

/** Swipes on extra-small screens, read the spec's way round (swipe.ts). */
function useSpecSwipe(enabled: boolean, index: number | null, count: number, go: (to: number) => void) {
  useEffect(() => {
    if (!enabled || index === null) return;
    // Pointer events: a finger, a pen or a mouse drag, one gesture at a time.
    let start: { id: number; x: number; y: number } | null = null;
    const onDown = (e: PointerEvent) => {
      start = e.isPrimary && e.target instanceof Element && e.target.closest('.photo-viewer') ? { id: e.pointerId, x: e.clientX, y: e.clientY } : null;
    };
    const onUp = (e: PointerEvent) => {
      if (!start || e.pointerId !== start.id) return;
      const to = swipeTarget(e.clientX - start.x, e.clientY - start.y, index, count);
      start = null;
      if (to !== null) go(to);
    };
    const onCancel = () => {
      start = null;
    };
    document.addEventListener('pointerdown', onDown, true);
    document.addEventListener('pointerup', onUp, true);
    document.addEventListener('pointercancel', onCancel, true);
    return () => {
      document.removeEventListener('pointerdown', onDown, true);
      document.removeEventListener('pointerup', onUp, true);
      document.removeEventListener('pointercancel', onCancel, true);
    };
  }, [enabled, index, count, go]);
}

export default function Lightbox() {
  useTabWrap();
  const dispatch = useViewerDispatch();
  const state = useViewerSelector((s) => s.viewer);
  const xs = useExtraSmallScreen();
  const { photos, count, pageSize, failedPages, activePhotoIndex, listing } = state;
  const go = useCallback((to: number) => dispatch(viewer.moved(to)), [dispatch]);
  useSpecSwipe(xs, activePhotoIndex, count, go);

  const slides = useMemo<Slide[]>(
    () =>
      Array.from({ length: count }, (_, i): Slide => {
        const p = photos[i];
        if (!p) return { type: 'photo-pending', failed: Boolean(failedPages[pageOffsetOf(i, pageSize)]) };
        return { src: pictureUrl(p.image_url), alt: p.alt, ...(p.width && p.height ? { width: p.width, height: p.height } : {}) };
      }),
    [photos, count, pageSize, failedPages],
  );

  if (activePhotoIndex === null) return null;
  return (
    <YarlLightbox
      open
      className="photo-viewer"
      index={activePhotoIndex}
      slides={slides}
      close={() => dispatch(viewer.closed({ via: 'ui' }))}
      on={{ view: ({ index }) => dispatch(viewer.moved(index)) }}
      carousel={{ finite: true, preload: 1 }}
      // The library's swipe runs the other way round from the spec: useSpecSwipe reads it.
      controller={{ disableSwipeNavigation: true, closeOnBackdropClick: true }}
      labels={{ Lightbox: `Photos of ${listing.name}`, Carousel: 'Photos', 'Photo gallery': `Photos of ${listing.name}`, Slide: 'photo', Previous: 'Previous photo', Next: 'Next photo', Close: 'Close' }}
      render={{
        slide: ({ slide }) => (slide.type === 'photo-pending' ? <PendingSlide failed={slide.failed} /> : undefined),
        controls: () => <ViewerChrome />,
      }}
    />
  );
}
