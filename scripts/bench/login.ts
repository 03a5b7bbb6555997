// Login latency under load, and the password hash cost.
//
//   PORT=3311 DATA_DIR=/tmp/bench-login npx tsx server/index.ts &     # a server to measure
//   npx tsx scripts/bench/login.ts http://127.0.0.1:3311 [connections=20] [seconds=10]
//
// Signs up one member per connection, then posts their correct credentials to
// /api/v2/profiles/email-login/ from N concurrent connections, rotating through the members
// (every request verifies the argon2id hash and writes a fresh session row, as a real sign-in
// does). Distinct members, as in real traffic: one account hammered by 20 parallel requests
// would trip its own per-email limit, which counts requests in flight.
import crypto from 'node:crypto';
import autocannon from 'autocannon';
import { hashPassword, verifyPassword } from '../../server/apps/accounts/passwords';

async function hashTimings(samples = 20) {
  const hashMs: number[] = [];
  const verifyMs: number[] = [];
  for (let i = 0; i < samples; i++) {
    let t = process.hrtime.bigint();
    const h = await hashPassword(`bench-password-${i}`);
    hashMs.push(Number(process.hrtime.bigint() - t) / 1e6);
    t = process.hrtime.bigint();
    await verifyPassword(h, `bench-password-${i}`);
    verifyMs.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return { hashMedianMs: median(hashMs), verifyMedianMs: median(verifyMs) };
}

async function main() {
  const base = (process.argv[2] ?? 'http://127.0.0.1:3311').replace(/\/$/, '');
  const connections = Number(process.argv[3] ?? 20);
  const duration = Number(process.argv[4] ?? 10);
  const csrf = crypto.randomBytes(32).toString('base64url');
  const password = 'bench-maple-streetcar-42';
  const headers = { 'content-type': 'application/json', cookie: `csrftoken=${csrf}`, 'x-csrftoken': csrf };
  const bodies: string[] = [];
  for (let i = 0; i < connections; i++) {
    const email = `bench-${Date.now()}-${i}@example.com`;
    const signup = await fetch(`${base}/api/v2/profiles/email-registration/`, { method: 'POST', headers, body: JSON.stringify({ email, password }) });
    if (signup.status !== 201) throw new Error(`sign-up failed: ${signup.status} ${await signup.text()}`);
    bodies.push(JSON.stringify({ email, password }));
  }
  let next = 0;

  const result = await autocannon({
    url: `${base}/api/v2/profiles/email-login/`,
    method: 'POST',
    headers,
    requests: [{ setupRequest: (req) => ({ ...req, body: bodies[next++ % bodies.length] }) }],
    connections,
    duration,
  });
  const non2xx = result.non2xx;
  console.log(
    JSON.stringify(
      {
        connections,
        durationS: duration,
        requests: result.requests.total,
        non2xx,
        statusCodes: (result as unknown as { statusCodeStats?: Record<string, { count: number }> }).statusCodeStats,
        reqPerSec: result.requests.average,
        latencyMs: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max },
        argon2id: { ...(await hashTimings()), params: 'm=19456 KiB, t=2, p=1' },
      },
      null,
      2,
    ),
  );
  if (non2xx) process.exitCode = 1;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
