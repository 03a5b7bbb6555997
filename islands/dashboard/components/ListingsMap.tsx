import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { ListingDTO } from '../../../shared/dto';
import { siteConfig } from '../../common/initial-state';
import { loadMapEngine } from '../../common/maps/loader';
import { listingPoints, MAP, sitePath } from '../../common/maps/geo';
import type { MapHandle } from '../../common/maps/types';

// The site's map (islands/common/maps) for the favourites and to-do screens: one marker per listing
// with the listing popup of spec 2 §2 "Maps" (max width 300 outside the listing page).
// maplibre is loaded only here and only when the map is shown (common/maps/loader.ts); a browser
// that cannot draw it gets the places as a list of links instead.

type Status = 'loading' | 'ready' | 'unavailable';

export function ListingsMap({ listings, label }: { listings: ListingDTO[]; label: string }) {
  const container = useRef<HTMLDivElement>(null);
  const handle = useRef<MapHandle | null>(null);
  const [status, setStatus] = useState<Status>('loading');
  const config = siteConfig();
  const ctx = useMemo(() => ({ siteUrl: config.url, cityName: config.city.name }), [config.url, config.city.name]);
  const points = useMemo(() => listingPoints(listings, ctx), [listings, ctx]);
  const latest = useRef(points);
  useLayoutEffect(() => {
    latest.current = points;
  });

  useEffect(() => {
    let cancelled = false;
    if (!latest.current.length) {
      setStatus('unavailable');
      return;
    }
    const first = latest.current[0];
    loadMapEngine()
      .then((engine) =>
        engine.create(container.current!, {
          center: { latitude: first.latitude, longitude: first.longitude },
          zoom: latest.current.length === 1 ? MAP.singleZoom : MAP.defaultZoom,
          fit: latest.current.length > 1 ? 'points' : 'none',
          points: latest.current,
          cluster: latest.current.length > 50,
          popupMaxWidth: MAP.popupWidth,
          label,
        }),
      )
      .then((h) => {
        if (cancelled) return h.destroy();
        handle.current = h;
        setStatus('ready');
      })
      .catch(() => !cancelled && setStatus('unavailable'));
    return () => {
      cancelled = true;
      handle.current?.destroy();
      handle.current = null;
    };
    // One map per opening; later changes (a deletion) move the markers below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    handle.current?.setPoints(points, false);
  }, [points]);

  return (
    <div className="dash-map" data-map-status={status}>
      {status !== 'unavailable' && <div ref={container} className="dash-map__canvas map-canvas" role="region" aria-label={label} aria-busy={status === 'loading'} />}
      {status === 'unavailable' && (
        <div className="map-fallback" role="region" aria-label={label}>
          {points.length > 0 && <p className="notice">The interactive map can’t be shown in this browser. Here are the places:</p>}
          {points.length === 0 && <p className="notice">None of these places has a location to map yet.</p>}
          <ul className="map-fallback__list">
            {listings.map((l) => (
              <li key={l.id}>
                <a href={sitePath(l.share_url, ctx.siteUrl)}>{l.name}</a>
                {l.address ? ` — ${l.address}` : ''}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
