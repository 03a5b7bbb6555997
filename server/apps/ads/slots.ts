import type { RequestHandler } from 'express';
import type { AppContext } from '../../context';
import { adsShown } from '../../config';
import { AGE_GATE_PATH, AGE_GATE_PREFIX } from '../../../shared/age-gate';
import { AD_SERVE_PATH } from './api';

// What templates/partials/ad-slot.njk needs, on every page: whether to print slots at all, and
// the operator's bidder script. The answer depends on the configuration and the path only, never
// on the visitor, so a page stays one body for everybody (the page cache keeps it). No slots
// with FEATURE_ADS off, in news-only mode, or on the age-gated cannabis section and its gate.

export interface AdSlotLocals {
  serveUrl: string;
  /** AD_BIDDER_SCRIPT_URL, loaded by the slots' script only when configured. */
  bidderScriptUrl: string | null;
}

export function behindAgeGate(path: string): boolean {
  return path === AGE_GATE_PREFIX || path.startsWith(`${AGE_GATE_PREFIX}/`) || path.startsWith(AGE_GATE_PATH);
}

export function adSlotLocals({ config }: AppContext): RequestHandler {
  const on = adsShown(config);
  const locals: AdSlotLocals = { serveUrl: AD_SERVE_PATH, bidderScriptUrl: config.ads.bidderScriptUrl };
  return (req, res, next) => {
    res.locals.adSlots = on && !behindAgeGate(req.path) ? locals : null;
    next();
  };
}
