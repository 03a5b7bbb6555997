import helmet from 'helmet';
import { adsShown, type Config } from '../config';

/**
 * The origins the base map fetches from, as configured: the hosted style's (its tiles, glyphs
 * and sprites are on the same host for OpenFreeMap and Protomaps) and a .pmtiles file's when it
 * is not on this site. Without either, maps fetch only from this origin.
 */
export function mapOrigins(config: Pick<Config, 'map'>): string[] {
  const origins = [config.map.styleUrl, config.map.pmtilesUrl]
    .filter((u): u is string => Boolean(u && /^https?:\/\//i.test(u)))
    .map((u) => new URL(u).origin);
  return [...new Set(origins)];
}

/**
 * The origin of the operator's ad bidder script (AD_BIDDER_SCRIPT_URL), which the script and
 * its bid requests come from; none unless one is configured and ads are shown at all.
 */
export function adBidderOrigins(config: Pick<Config, 'ads' | 'flags'>): string[] {
  const url = config.ads.bidderScriptUrl;
  return url && adsShown(config) ? [new URL(url).origin] : [];
}

/**
 * Helmet with a Content-Security-Policy the islands work under: scripts only from this
 * origin (Vite emits files, no inline code; initial state is JSON, not script), the configured
 * base map's origin and the maplibre worker (blob:) allowed, images from anywhere over https for external event
 * photos.
 */
export function securityHeaders(config: Config) {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'", ...(config.apple.clientId ? ['https://appleid.cdn-apple.com'] : []), ...adBidderOrigins(config)],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:', 'blob:', 'https:'],
        'connect-src': ["'self'", ...mapOrigins(config), ...adBidderOrigins(config)],
        'worker-src': ["'self'", 'blob:'],
        'frame-src': ["'self'", 'https://www.youtube-nocookie.com', 'https://www.youtube.com'],
        'form-action': ["'self'", 'https://www.facebook.com', 'https://appleid.apple.com'],
        'upgrade-insecure-requests': config.isProduction ? [] : null,
      },
    },
    // Django's default: other sites learn nothing from the Referer, while this site's own
    // forms keep their Origin (under no-referrer, browsers send `Origin: null`, which the
    // CSRF origin check must refuse).
    referrerPolicy: { policy: 'same-origin' },
    strictTransportSecurity: config.isProduction,
    crossOriginEmbedderPolicy: false,
  });
}
