import { AD_BID_TIMEOUT_MS, AD_LARGE_MIN_WIDTH, AD_REFRESH_MS, AD_SLOTS, runAuction, type AdServeResponse, type AdSlotName, type Bid, type BidderAdapter, type HouseAdDTO } from '../../shared/ads';
import { pictureUrl } from '../common/picture-url';

// Fills the ad slots the templates print (templates/partials/ad-slot.njk). No React: this is
// a few hundred bytes beside every page. A slot is filled once it is in view with the tab
// visible; the bidders an operator's script registered (window.adBidders) get 3.5 s, then the
// house ad shows. A slot in view refreshes every 45 s, and its timer stops while the tab is
// hidden or the slot is scrolled away. Slots keep their fixed box whatever fills them.

declare global {
  interface Window {
    /** Bidder adapters an operator's bidder script pushes (shared/ads.ts BidderAdapter). */
    adBidders?: BidderAdapter[];
  }
}

type Creative = Pick<HouseAdDTO, 'image_url' | 'click_url' | 'alt'>;

interface SlotState {
  el: HTMLElement;
  name: AdSlotName;
  inView: boolean;
  filled: boolean;
  loading: boolean;
  timer: ReturnType<typeof setTimeout> | null;
}

function isSlotName(name: string | undefined): name is AdSlotName {
  return Boolean(name && Object.hasOwn(AD_SLOTS, name));
}

/** Loads the operator's bidder script once; resolves when it ran or failed. */
function loadBidderScript(src: string): Promise<void> {
  return new Promise((resolve) => {
    const script = document.createElement('script');
    script.src = src;
    script.async = true;
    script.onload = () => resolve();
    script.onerror = () => resolve();
    document.head.append(script);
  });
}

function show(state: SlotState, creative: Creative, source: string): void {
  const box = state.el.querySelector('.ad-slot__box');
  if (!box) return;
  const link = document.createElement('a');
  link.href = creative.click_url;
  link.rel = 'sponsored noopener';
  const img = document.createElement('img');
  img.src = pictureUrl(creative.image_url);
  img.alt = creative.alt;
  img.decoding = 'async';
  link.append(img);
  box.replaceChildren(link);
  state.el.dataset.adSource = source;
}

export function startAdSlots(root: ParentNode = document): void {
  const elements = Array.from(root.querySelectorAll<HTMLElement>('[data-ad-slot]'));
  const states = elements.flatMap((el): SlotState[] => {
    const name = el.dataset.adSlot;
    return isSlotName(name) ? [{ el, name, inView: false, filled: false, loading: false, timer: null }] : [];
  });
  if (!states.length) return;
  const bidderSrc = states[0].el.dataset.bidderScript;
  const bidderScript = bidderSrc ? loadBidderScript(bidderSrc) : Promise.resolve();

  const active = (s: SlotState) => s.inView && document.visibilityState === 'visible';

  async function bid(s: SlotState): Promise<Bid | null> {
    if (!bidderSrc) return null;
    const started = Date.now();
    // The bidders' whole time, their script's loading included, is the one 3.5 s.
    await Promise.race([bidderScript, new Promise((r) => setTimeout(r, AD_BID_TIMEOUT_MS))]);
    const size = AD_SLOTS[s.name][window.innerWidth >= AD_LARGE_MIN_WIDTH ? 'large' : 'small'];
    return runAuction(window.adBidders ?? [], { slot: s.name, ...size }, Math.max(0, AD_BID_TIMEOUT_MS - (Date.now() - started)));
  }

  async function houseAd(s: SlotState): Promise<HouseAdDTO | null> {
    const url = `${s.el.dataset.serveUrl}?slot=${encodeURIComponent(s.name)}`;
    // No cookie goes with it: an impression is counted, never tied to anyone.
    const res = await fetch(url, { credentials: 'omit', cache: 'no-store' });
    return res.ok ? ((await res.json()) as AdServeResponse).ad : null;
  }

  async function fill(s: SlotState): Promise<void> {
    s.loading = true;
    try {
      const won = await bid(s);
      if (won) show(s, won, `bid:${won.bidder}`);
      else {
        const ad = await houseAd(s);
        if (ad) show(s, ad, `house:${ad.id}`);
      }
    } catch {
      // A failed fill leaves the slot as it was (its box, or the previous ad).
    } finally {
      s.loading = false;
      s.filled = true;
      update(s);
    }
  }

  function update(s: SlotState): void {
    if (!active(s)) {
      if (s.timer) clearTimeout(s.timer);
      s.timer = null;
      return;
    }
    if (s.loading || s.timer) return;
    if (!s.filled) return void fill(s);
    s.timer = setTimeout(() => {
      s.timer = null;
      if (active(s)) void fill(s);
    }, AD_REFRESH_MS);
  }

  const observer = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      const s = states.find((x) => x.el === entry.target);
      if (!s) continue;
      s.inView = entry.isIntersecting;
      update(s);
    }
  });
  for (const s of states) observer.observe(s.el);
  document.addEventListener('visibilitychange', () => states.forEach(update));
}
