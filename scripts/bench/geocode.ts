// The geocoder (GET /api/v2/geocode/) at one client, and how far its placed addresses fall
// from the truth.
//
// Speed: the real app in-process on a local port, one request at a time, a few hundred
// distinct queries (no cache between them): real addresses from the database, the same typed
// other ways (lower case, "Street"/"West" spelled out, ", Toronto", a unit), unknown numbers
// on known streets, unknown streets, stations, neighbourhoods and place-name prefixes. The
// first request, which reads the gazetteer, is reported on its own.
//
// Accuracy, leave-one-out: for 100 listing addresses (on streets with at least three other
// known numbers) and every library branch (scripts/seed/data, not in the index, but a café
// may share its address), the address's own number is taken out of its street and the point
// placed from the rest is compared with the true one.
//
//   DATABASE_URL=postgres://root@127.0.0.1:5432/guide_demo npx tsx scripts/bench/geocode.ts
//   npx tsx scripts/bench/geocode.ts            (the embedded database in DATA_DIR; stop the server first)
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../server/config';
import { openDatabaseFromConfig } from '../../server/db';
import { createApp } from '../../server/app';
import { gazetteerFor } from '../../server/apps/geocoder/loader';
import { locateOnStreet, type Gazetteer, type Point } from '../../server/apps/geocoder/gazetteer';
import { parseAddress } from '../../server/apps/geocoder/normalise';
import { readLibraries } from '../seed/data-files';
import { EARTH_RADIUS_KM } from '../../shared/constants';
import { buildAppContext, droppedMail } from '../../server/app-context';

const ADDRESSES = 120;
const HELD_OUT = 100;

function metres(a: Point, b: Point): number {
  const rad = (d: number) => (d * Math.PI) / 180;
  const h = Math.sin(rad(b.latitude - a.latitude) / 2) ** 2 + Math.cos(rad(a.latitude)) * Math.cos(rad(b.latitude)) * Math.sin(rad(b.longitude - a.longitude) / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * 1000 * Math.asin(Math.sqrt(h));
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

function summary(xs: number[], unit: string, digits: number): string {
  const s = [...xs].sort((a, b) => a - b);
  const f = (v: number) => v.toFixed(digits);
  return `n ${s.length}, p50 ${f(pct(s, 50))} ${unit}, p90 ${f(pct(s, 90))} ${unit}, p95 ${f(pct(s, 95))} ${unit}, max ${f(s[s.length - 1])} ${unit}`;
}

/** The same address as a person might type it. */
function typedVariants(address: string): string[] {
  const first = address.split(',')[0];
  const spelled = first
    .replace(/\bSt\b/, 'Street')
    .replace(/\bAve\b/, 'Avenue')
    .replace(/\bRd\b/, 'Road')
    .replace(/\bW$/, 'West')
    .replace(/\bE$/, 'East');
  return [first.toLowerCase(), spelled, `${first.replace(/\b(St|Ave|Rd|Dr|Blvd)\b/, '$1.')}, Toronto`, `${first} #5`];
}

type Kind = 'known address' | 'typed variant' | 'unknown number' | 'unknown street' | 'name';

function queries(g: Gazetteer, rows: Array<{ address: string }>): Array<[Kind, string]> {
  const out: Array<[Kind, string]> = [];
  const add = (kind: Kind, ...qs: string[]) => out.push(...qs.map((q): [Kind, string] => [kind, q]));
  const step = Math.max(1, Math.floor(rows.length / ADDRESSES));
  const picked = rows.filter((_, i) => i % step === 0).slice(0, ADDRESSES);
  for (const r of picked) add('known address', r.address.split(',')[0]);
  for (const r of picked.slice(0, 40)) add('typed variant', ...typedVariants(r.address));
  // Unknown numbers on known streets.
  let unknown = 0;
  for (const r of picked) {
    const p = parseAddress(r.address);
    const street = p && g.streets.get(p.street);
    if (!p || !street) continue;
    for (let n = p.number + 2; n < p.number + 40; n += 2) {
      if (!street.numbers.some((x) => x.number === n)) {
        add('unknown number', `${n} ${street.label}`);
        unknown++;
        break;
      }
    }
    if (unknown >= 60) break;
  }
  for (let i = 0; i < 30; i++) add('unknown street', `${i * 7 + 1} Nowhere${i} Street`);
  add('name', ...g.stations.slice(0, 20).map((s) => s.label), ...g.neighbourhoods.slice(0, 20).map((n) => n.label));
  add('name', ...['pi', 'piz', 'pizza', 'tim', 'sushi', 'cafe', 'bar', 'the', 'golden', 'king']);
  return out;
}

async function main() {
  const config = loadConfig({ ...process.env, NODE_ENV: 'development', LOG_LEVEL: 'silent', SERVER_TIMING: 'false', RATE_LIMITS: 'false' });
  const handle = await openDatabaseFromConfig(config);
  const ctx = buildAppContext(config, handle, { mailer: droppedMail });
  const server = http.createServer(createApp(ctx, { watchManifest: false }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v2/geocode/?q=`;
  try {
    const ask = async (q: string) => {
      const t0 = process.hrtime.bigint();
      const res = await fetch(base + encodeURIComponent(q));
      const body = (await res.json()) as { results: unknown[] };
      if (res.status !== 200) throw new Error(`${q}: ${res.status} ${JSON.stringify(body)}`);
      return { ms: Number(process.hrtime.bigint() - t0) / 1e6, found: body.results.length > 0 };
    };
    const first = await ask('401 Bay St');
    console.log(`first request (reads the gazetteer, ${handle.kind}): ${first.ms.toFixed(1)} ms`);
    const g = await gazetteerFor(handle.db);
    const rows = (await handle.db('listings').whereNotNull('latitude').orderBy('id').select('address', 'latitude', 'longitude')) as Array<{ address: string; latitude: number; longitude: number }>;
    const qs = queries(g, rows);
    const times: number[] = [];
    const byKind = new Map<Kind, { ms: number[]; found: number }>();
    for (const [kind, q] of qs) {
      const r = await ask(q);
      times.push(r.ms);
      const k = byKind.get(kind) ?? byKind.set(kind, { ms: [], found: 0 }).get(kind)!;
      k.ms.push(r.ms);
      if (r.found) k.found++;
    }
    console.log(`GET /api/v2/geocode/ at one client, ${qs.length} distinct queries: ${summary(times, 'ms', 2)}`);
    for (const [kind, k] of byKind) console.log(`  ${kind} (${k.found} of ${k.ms.length} answered): ${summary(k.ms, 'ms', 2)}`);

    // Leave-one-out: listings on streets with at least three other numbers.
    const listingErrors: number[] = [];
    const step = Math.max(1, Math.floor(rows.length / (HELD_OUT * 4)));
    for (let i = 0; i < rows.length && listingErrors.length < HELD_OUT; i += step) {
      const r = rows[i];
      const p = parseAddress(r.address);
      const street = p && g.streets.get(p.street);
      if (!p || !street || street.numbers.filter((x) => x.number !== p.number).length < 3) continue;
      const placed = locateOnStreet(street, p, p.number);
      if (placed) listingErrors.push(metres(placed, r));
    }
    console.log(`held-out listing addresses, placed without their own number: ${summary(listingErrors, 'm', 0)}`);

    const libraryErrors: number[] = [];
    let unplaced = 0;
    for (const lib of readLibraries()) {
      const p = parseAddress(lib.address);
      const street = p && g.streets.get(p.street);
      const placed = p && street ? locateOnStreet(street, p, p.number) : null;
      if (placed) libraryErrors.push(metres(placed, lib));
      else unplaced++;
    }
    console.log(`library branches (their own number left out): ${summary(libraryErrors, 'm', 0)}; ${unplaced} on streets with no food premises`);
  } finally {
    await new Promise((resolve) => server.close(resolve));
    await handle.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
