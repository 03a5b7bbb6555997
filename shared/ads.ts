import { BREAKPOINTS, TIMINGS_MS } from './constants';

// Ads (spec 1 §9: refresh 45 s, bid timeout 3.5 s), shared by the server (house ads, the
// slots the templates print) and the ad-slots island (which fills them): the slots and their
// fixed sizes, what a house ad and a bid look like, and the auction among bidder adapters.

/**
 * The slots the templates print. Each keeps the same box whatever fills it (or nothing does),
 * so an ad never moves the page: the leaderboard is 320x50 on extra-small screens and 728x90
 * from 640 px; in-feed and sidebar are medium rectangles.
 */
export const AD_SLOTS = {
  leaderboard: { small: { width: 320, height: 50 }, large: { width: 728, height: 90 } },
  'in-feed': { small: { width: 300, height: 250 }, large: { width: 300, height: 250 } },
  sidebar: { small: { width: 300, height: 250 }, large: { width: 300, height: 250 } },
} as const;
export type AdSlotName = keyof typeof AD_SLOTS;
export const AD_SLOT_NAMES = Object.keys(AD_SLOTS) as AdSlotName[];
/** From this width a slot takes its large size (the end of spec 1 §9's extra-small). */
export const AD_LARGE_MIN_WIDTH = BREAKPOINTS.xSmallMax + 1;

export const AD_REFRESH_MS = TIMINGS_MS.adRefresh;
export const AD_BID_TIMEOUT_MS = TIMINGS_MS.adBidTimeout;

/** GET /api/ads/serve/?slot=: the house ad to show (its impression is counted), or none. */
export interface HouseAdDTO {
  id: number;
  slot: AdSlotName;
  image_url: string;
  alt: string;
  /** Counts the click, then redirects to the advertiser. */
  click_url: string;
}
export interface AdServeResponse {
  ad: HouseAdDTO | null;
}

/** What a slot asks a bidder for. */
export interface BidRequest {
  slot: AdSlotName;
  width: number;
  height: number;
}

/** A bidder's answer: a creative (an image and where it links) and what it pays per thousand. */
export interface Bid {
  bidder: string;
  cpm: number;
  image_url: string;
  click_url: string;
  alt: string;
}

/**
 * A bidder adapter: one function returning a bid, or null for no bid. An operator's bidder
 * script (AD_BIDDER_SCRIPT_URL) registers its adapters on window.adBidders; with none
 * registered, no auction waits and the house ad shows at once.
 */
export interface BidderAdapter {
  name: string;
  requestBid(request: BidRequest, signal: AbortSignal): Promise<Bid | null>;
}

function validBid(bid: Bid | null | undefined): bid is Bid {
  return Boolean(bid && Number.isFinite(bid.cpm) && bid.cpm > 0 && /^https:\/\//.test(bid.image_url) && /^https:\/\//.test(bid.click_url));
}

/**
 * Asks every adapter at once and answers the highest bid received within timeoutMs; a bidder
 * that throws, answers nonsense or is late counts as no bid, and a late one is aborted. Null
 * (the house ad shows) when none bid in time. Answers as soon as every bidder has answered.
 */
export function runAuction(adapters: readonly BidderAdapter[], request: BidRequest, timeoutMs: number = AD_BID_TIMEOUT_MS): Promise<Bid | null> {
  if (!adapters.length) return Promise.resolve(null);
  const controller = new AbortController();
  const bids: Bid[] = [];
  return new Promise((resolve) => {
    let pending = adapters.length;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      controller.abort();
      resolve(bids.reduce<Bid | null>((best, b) => (!best || b.cpm > best.cpm ? b : best), null));
    };
    const timer = setTimeout(finish, timeoutMs);
    for (const adapter of adapters) {
      let answer: Promise<Bid | null>;
      try {
        answer = Promise.resolve(adapter.requestBid(request, controller.signal));
      } catch {
        answer = Promise.resolve(null);
      }
      answer
        .then((bid) => {
          if (!done && validBid(bid)) bids.push({ ...bid, bidder: adapter.name });
        }, () => undefined)
        .finally(() => {
          pending -= 1;
          if (pending === 0) finish();
        });
    }
  });
}
