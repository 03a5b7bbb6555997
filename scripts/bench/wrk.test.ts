import { parseWrkOutput } from './wrk';

// Output of `wrk -t2 -c10 -d1s --latency` (Debian's wrk 4.1.0) against the nginx stack, and the
// lines it adds when answers fail.
const OUTPUT = `Running 1s test @ https://127.0.0.1:8443/
  2 threads and 10 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     9.33ms   28.78ms 328.59ms   97.94%
    Req/Sec     1.10k   466.21     2.20k    70.00%
  Latency Distribution
     50%  357.00us
     75%    9.62ms
     90%   15.92ms
     99%    1.89s
  2249 requests in 1.04s, 16.89MB read
Requests/sec:   2159.65
Transfer/sec:     16.22MB
`;

describe('parseWrkOutput', () => {
  it('reads req/s, the 50th and 99th percentiles in milliseconds and the request count', () => {
    expect(parseWrkOutput(OUTPUT)).toEqual({ reqPerSec: 2159.65, p50: 0.357, p99: 1890, requests: 2249, non2xx: 0, errors: 0, timeouts: 0 });
  });

  it('counts failed answers, socket errors and timeouts', () => {
    const failing = OUTPUT.replace('Requests/sec', '  Socket errors: connect 1, read 2, write 3, timeout 4\n  Non-2xx or 3xx responses: 17\nRequests/sec');
    expect(parseWrkOutput(failing)).toMatchObject({ non2xx: 17, errors: 6, timeouts: 4 });
  });

  it('refuses output without the latency distribution rather than report a zero', () => {
    expect(() => parseWrkOutput(OUTPUT.replace(/\s+99%.*\n/, '\n'))).toThrow(/99th percentile/);
  });
});
