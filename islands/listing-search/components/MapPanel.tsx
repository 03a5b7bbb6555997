import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { ListingDTO } from '../../../shared/dto';
import { loadMapEngine } from '../../common/maps/loader';
import { listingPoints, MAP, sitePath } from '../../common/maps/geo';
import type { BBox, LatLng, MapHandle } from '../../common/maps/types';

// The map view: the results as clustered markers with popups, and 'Refresh results in this
// area' once the visitor has moved the map (the bounds are sent after the map stops moving).
// maplibre loads here, lazily (common/maps/loader.ts); without WebGL the results show as a list.

interface Props {
  items: ListingDTO[];
  siteUrl: string;
  cityName: string;
  centre: LatLng;
  /** Refit the view to new results (not after the visitor chose the area themselves). */
  refit: boolean;
  areaChosen: boolean;
  disabled: boolean;
  onRefresh(bbox: BBox): void;
  onClearArea(): void;
}

type Status = 'loading' | 'ready' | 'unavailable';

export function MapPanel({ items, siteUrl, cityName, centre, refit, areaChosen, disabled, onRefresh, onClearArea }: Props) {
  const container = useRef<HTMLDivElement>(null);
  const handle = useRef<MapHandle | null>(null);
  const [status, setStatus] = useState<Status>('loading');
  const [moved, setMoved] = useState(false);
  const points = useMemo(() => listingPoints(items, { siteUrl, cityName }), [items, siteUrl, cityName]);
  const latest = useRef({ points, refit });
  useLayoutEffect(() => {
    latest.current = { points, refit };
  });

  useEffect(() => {
    let cancelled = false;
    let off: (() => void) | null = null;
    loadMapEngine()
      .then((engine) =>
        engine.create(container.current!, {
          center: centre,
          zoom: MAP.defaultZoom,
          fit: 'points',
          points: latest.current.points,
          cluster: true,
          popupMaxWidth: MAP.popupWidth,
          label: 'Map of the results',
        }),
      )
      .then((h) => {
        if (cancelled) return h.destroy();
        handle.current = h;
        off = h.onMoveEnd(() => setMoved(true));
        setStatus('ready');
      })
      .catch(() => !cancelled && setStatus('unavailable'));
    return () => {
      cancelled = true;
      off?.();
      handle.current?.destroy();
      handle.current = null;
    };
    // The map is created once per opening of the map view.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    handle.current?.setPoints(points, latest.current.refit);
  }, [points]);

  const refresh = async () => {
    const h = handle.current;
    if (!h) return;
    await h.whenStill();
    setMoved(false);
    onRefresh(h.bounds());
  };

  return (
    <div className="listing-search__map-panel">
      {status === 'ready' && (moved || areaChosen) && (
      <div className="listing-search__map-actions">
        <button type="button" onClick={refresh} disabled={disabled}>
          Refresh results in this area
        </button>
        {areaChosen && (
          <button type="button" className="button--quiet" onClick={onClearArea} disabled={disabled}>
            Show all areas
          </button>
        )}
      </div>
      )}
      {status !== 'unavailable' && (
        <div ref={container} className="listing-search__map map-canvas" data-map-status={status} aria-busy={status === 'loading'} />
      )}
      {status === 'unavailable' && (
        <div className="map-fallback" role="region" aria-label="Places in these results">
          <p className="notice">The interactive map can’t be shown in this browser. Here are the places in these results:</p>
          <ul className="map-fallback__list">
            {items.map((l) => (
              <li key={l.id}>
                <a href={sitePath(l.share_url, siteUrl)}>{l.name}</a>
                {l.address ? ` — ${l.address}` : ''}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
