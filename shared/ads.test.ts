import { AD_BID_TIMEOUT_MS, runAuction, type Bid, type BidderAdapter } from './ads';

// The bidder adapter interface: every bidder asked at once, the best bid received within the
// 3.5 s timeout wins, and after it the house ad shows (null), whatever a late bidder says.

const bid = (cpm: number, bidder = 'x'): Bid => ({ bidder, cpm, image_url: 'https://cdn.example/a.png', click_url: 'https://cdn.example/go', alt: 'An ad' });
const after = (ms: number, value: Bid | null, seen?: AbortSignal[]): BidderAdapter['requestBid'] => (_req, signal) => {
  seen?.push(signal);
  return new Promise((resolve) => setTimeout(() => resolve(value), ms));
};
const request = { slot: 'leaderboard' as const, width: 728, height: 90 };

describe('runAuction', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  test('the timeout is 3.5 s', () => {
    expect(AD_BID_TIMEOUT_MS).toBe(3500);
  });

  test('a bidder slower than 3.5 s loses: at 3.5 s the auction answers null (the house ad shows) and aborts it', async () => {
    const signals: AbortSignal[] = [];
    let answer: Bid | null | undefined;
    void runAuction([{ name: 'slow', requestBid: after(5000, bid(9), signals) }], request).then((b) => (answer = b));
    await jest.advanceTimersByTimeAsync(AD_BID_TIMEOUT_MS - 1);
    expect(answer).toBeUndefined();
    await jest.advanceTimersByTimeAsync(1);
    expect(answer).toBeNull();
    expect(signals[0].aborted).toBe(true);
    await jest.advanceTimersByTimeAsync(5000);
    expect(answer).toBeNull();
  });

  test('the highest bid in time wins; late, failing and worthless bids count as none', async () => {
    let answer: Bid | null | undefined;
    void runAuction(
      [
        { name: 'low', requestBid: after(100, bid(1.5)) },
        { name: 'high', requestBid: after(3000, bid(2.25)) },
        { name: 'late', requestBid: after(4000, bid(50)) },
        { name: 'broken', requestBid: () => Promise.reject(new Error('down')) },
        { name: 'throws', requestBid: () => { throw new Error('bad adapter'); } },
        { name: 'zero', requestBid: after(10, bid(0)) },
        { name: 'insecure', requestBid: after(10, { ...bid(99), image_url: 'http://cdn.example/a.png' }) },
      ],
      request,
    ).then((b) => (answer = b));
    await jest.advanceTimersByTimeAsync(AD_BID_TIMEOUT_MS);
    expect(answer).toMatchObject({ bidder: 'high', cpm: 2.25 });
  });

  test('it answers as soon as every bidder has, and at once with no bidders', async () => {
    let answer: Bid | null | undefined;
    void runAuction([{ name: 'quick', requestBid: after(200, bid(3)) }], request).then((b) => (answer = b));
    await jest.advanceTimersByTimeAsync(200);
    expect(answer).toMatchObject({ bidder: 'quick' });
    await expect(runAuction([], request)).resolves.toBeNull();
  });
});
