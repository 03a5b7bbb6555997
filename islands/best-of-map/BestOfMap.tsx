import { useEffect, useId, useRef, useState } from 'react';
import type { BestOfMapState } from '../../shared/islands';
import { useModalFocus } from '../common/Dialog';
import { loadMapEngine } from '../common/maps/loader';
import { listingPoints, MAP, sitePath } from '../common/maps/geo';
import type { LatLng, MapHandle } from '../common/maps/types';

// 'View Map' opens the list's places on a map that fills the window, as a modal dialog:
// 'Close Map' or Esc closes it and focus goes back to 'View Map'; Tab stays inside; the page
// behind does not scroll. Without WebGL the dialog lists the places instead.

// The island's state (shared/islands.ts, printed by server/apps/articles/pages.ts).
export type { BestOfMapState };

interface Props {
  state: BestOfMapState;
  siteUrl: string;
  cityName: string;
  centre: LatLng;
}

type Status = 'loading' | 'ready' | 'unavailable';

const FULL_SCREEN_CLASS = 'has-full-screen-map';

export function BestOfMap({ state, siteUrl, cityName, centre }: Props) {
  const [open, setOpen] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(false);
  useEffect(() => {
    if (open) wasOpen.current = true;
    else if (wasOpen.current) opener.current?.focus();
  }, [open]);
  return (
    <>
      <button ref={opener} type="button" className="button--secondary best-of-map__open" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        View Map
      </button>
      {open && <FullScreenMap state={state} siteUrl={siteUrl} cityName={cityName} centre={centre} onClose={() => setOpen(false)} />}
    </>
  );
}

function FullScreenMap({ state, siteUrl, cityName, centre, onClose }: Props & { onClose(): void }) {
  const titleId = useId();
  const dialog = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLDivElement>(null);
  const [status, setStatus] = useState<Status>('loading');

  // Focus to Close Map, Esc, Tab kept inside: the shared modal keyboard (Dialog.tsx).
  useModalFocus(dialog, onClose);

  useEffect(() => {
    document.documentElement.classList.add(FULL_SCREEN_CLASS);
    return () => document.documentElement.classList.remove(FULL_SCREEN_CLASS);
  }, []);

  useEffect(() => {
    let cancelled = false;
    let handle: MapHandle | null = null;
    const ctx = { siteUrl, cityName };
    loadMapEngine()
      .then((engine) =>
        engine.create(canvas.current!, {
          center: centre,
          zoom: MAP.defaultZoom,
          fit: 'points',
          points: listingPoints(state.listings, ctx),
          popupMaxWidth: MAP.popupWidth,
          label: `Map of ${state.title}`,
        }),
      )
      .then((h) => {
        if (cancelled) return h.destroy();
        handle = h;
        h.resize();
        setStatus('ready');
      })
      .catch(() => !cancelled && setStatus('unavailable'));
    return () => {
      cancelled = true;
      handle?.destroy();
    };
    // One map per opening.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <div ref={dialog} className="best-of-map__dialog" role="dialog" aria-modal="true" aria-labelledby={titleId}>
      <div className="best-of-map__bar">
        <h2 id={titleId} className="best-of-map__title">
          {state.title}
        </h2>
        <button type="button" onClick={onClose}>
          Close Map
        </button>
      </div>
      {status !== 'unavailable' && <div ref={canvas} className="best-of-map__canvas map-canvas" data-map-status={status} aria-busy={status === 'loading'} />}
      {status === 'unavailable' && (
        <div className="best-of-map__fallback">
          <p className="notice">The interactive map can’t be shown in this browser. Here are the places on this list:</p>
          <ol className="map-fallback__list">
            {state.listings.map((l) => (
              <li key={l.id}>
                <a href={sitePath(l.share_url, siteUrl)}>{l.name}</a>
                {l.address ? ` — ${l.address}` : ''}
              </li>
            ))}
          </ol>
        </div>
      )}
    </div>
  );
}
