import { useCallback, useEffect, useRef, useState } from 'react';
import type { ListingDTO } from '../../../shared/dto';
import { pictureUrl } from '../../common/picture-url';
import { sitePath } from '../../common/maps/geo';

// The small-screen slider of spec 2 §2: under the map, the results one card at a time, swiped
// (native scrolling with snap points) or stepped with Previous / Next, one slide per 500 ms
// (spec 2 §9). Previous is hidden on the first card and Next on the last; nearing the end asks
// for the next page; a new search mounts a new slider (keyed by its generation), back at the
// first card. listing-panel.css shows it only under 940 px (x-small and small screens).

export const SLIDE_MS = 500;
/** Slides from the end at which the next page is asked for. */
const NEAR_END = 3;

interface Props {
  items: ListingDTO[];
  count: number;
  siteUrl: string;
  cityName: string;
  onNearEnd(): void;
}

const ease = (t: number) => (t < 0.5 ? 2 * t * t : 1 - (-2 * t + 2) ** 2 / 2);

/** Scrolls `el` to `left` over SLIDE_MS (smooth scrolling's own duration cannot be set). */
function glide(el: HTMLElement, left: number): void {
  const reduce = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
  const from = el.scrollLeft;
  if (reduce || typeof requestAnimationFrame === 'undefined') {
    el.scrollLeft = left;
    return;
  }
  // Snap points would pull each frame back to a slide: off while gliding.
  el.style.scrollSnapType = 'none';
  const start = performance.now();
  const step = (now: number) => {
    const t = Math.min(1, (now - start) / SLIDE_MS);
    el.scrollLeft = from + (left - from) * ease(t);
    if (t < 1) requestAnimationFrame(step);
    else el.style.scrollSnapType = '';
  };
  requestAnimationFrame(step);
}

export function ResultSlider({ items, count, siteUrl, cityName, onNearEnd }: Props) {
  const track = useRef<HTMLUListElement>(null);
  const [index, setIndex] = useState(0);
  const last = items.length - 1;

  const slideWidth = () => {
    const first = track.current?.firstElementChild as HTMLElement | null;
    return first ? first.getBoundingClientRect().width + parseFloat(getComputedStyle(track.current!).columnGap || '0') : 0;
  };
  const go = useCallback((to: number) => {
    const el = track.current;
    const w = slideWidth();
    if (!el || !w) return;
    const target = Math.max(0, Math.min(to, items.length - 1));
    setIndex(target);
    glide(el, target * w);
  }, [items.length]);

  useEffect(() => {
    if (items.length > 0 && index >= items.length - NEAR_END) onNearEnd();
  }, [index, items.length, onNearEnd]);

  const onScroll = () => {
    const el = track.current;
    const w = slideWidth();
    if (el && w && el.style.scrollSnapType !== 'none') setIndex(Math.round(el.scrollLeft / w));
  };

  if (items.length === 0) return null;
  return (
    <section className="result-slider" aria-roledescription="carousel" aria-label="Places slider">
      <div className="result-slider__controls">
        <p className="result-slider__position" aria-live="polite">
          {index + 1} of {count}
        </p>
        {index > 0 && (
          <button type="button" className="button--secondary result-slider__prev" onClick={() => go(index - 1)}>
            Previous<span className="visually-hidden"> place</span>
          </button>
        )}
        {index < last && (
          <button type="button" className="button--secondary result-slider__next" onClick={() => go(index + 1)}>
            Next<span className="visually-hidden"> place</span>
          </button>
        )}
      </div>
      <ul className="result-slider__track" ref={track} onScroll={onScroll} tabIndex={0} aria-label="Swipe for more places">
        {items.map((l, i) => (
          <li key={l.id} className="result-slider__slide" aria-roledescription="slide" aria-label={`${i + 1} of ${count}`}>
            <a className="result-slider__link" href={sitePath(l.share_url, siteUrl)} tabIndex={i === index ? 0 : -1}>
              {l.image_url ? (
                <img className="result-slider__image" src={pictureUrl(l.image_url, 'listingCard')} width={210} height={140} alt="" loading="lazy" decoding="async" />
              ) : (
                <span className="result-slider__image result-slider__image--none" aria-hidden="true">
                  {l.name.charAt(0).toUpperCase()}
                </span>
              )}
              <span className="result-slider__body">
                <span className="result-slider__name">{l.name}</span>
                <span className="result-slider__kicker">
                  {l.sub_type ? l.sub_type.name : l.type?.name}
                  {l.default_neighborhood ? ` · ${l.default_neighborhood.name}` : ''}
                </span>
                {l.address && <span className="result-slider__address">{l.address}</span>}
                {l.appears_in_best_of_lists && <span className="best-of-sticker">Best of {cityName}</span>}
              </span>
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
