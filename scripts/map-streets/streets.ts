import { parseAddress } from '../../server/apps/geocoder/normalise';
import { streetLabel } from './street-name';
import { distToSegment, simplifyLine, type XY } from '../geometry/simplify-line';

// Street centrelines from the addresses we hold (no street network is open to this project):
// every food premises in DineSafe has a civic address and a point, and the points of one street,
// in house-number order, trace it.
//
// 1. Parse each address (the geocoder's parser); one point per civic number (the median of the
//    premises at that number: a mall holds dozens).
// 2. Cluster one street's numbers by distance (single linkage, GAP_M): two places of the same
//    name (Toronto has several John Streets) and the two ends of a street with nothing on it in
//    between stay apart. Never joined across a gap.
//    A small cluster inside the number range of a much bigger one is a mislabel and left out.
// 3. In each cluster, in house-number order, drop a number far from the line through the
//    medians of its neighbours (OUTLIER_M: a big site's point sits in its middle, or the record
//    is wrong) and split again where consecutive numbers are GAP_M apart. Then order the points
//    by where they stand along a coarse guide line (the two sides of a street are not numbered
//    in step), average each with its SMOOTH_K neighbours each side (odd and even numbers face
//    each other across the street) and simplify (Douglas-Peucker, SIMPLIFY_M).
// 4. Keep a run of at least MIN_ADDRESSES numbers over MIN_LENGTH_M. A street divided at Yonge
//    (or another divide) into W/E or N/S halves has its facing ends met at their midpoint when
//    they are within DIVIDE_M, so Bloor crosses Yonge instead of stopping short on both sides.
// 5. Each line carries its label and rank: the addresses supporting the whole street, so
//    arterials (Yonge, Bloor, Dundas) come first and show from lower zooms (MAJOR_ADDRESSES).
//
// Limits: a street without food premises is missing, and one with few shows only where they
// are; a line ends at the last address, not at the corner.

export const STREETS = {
  GAP_M: 700,
  OUTLIER_M: 90,
  SIMPLIFY_M: 12,
  MIN_ADDRESSES: 3,
  MIN_LENGTH_M: 60,
  DIVIDE_M: 250,
  MAJOR_ADDRESSES: 40,
  MISLABEL_RATIO: 5,
  GUIDE_K: 5,
  SMOOTH_K: 3,
} as const;

const M_PER_DEG_LAT = 111_132;
const M_PER_DEG_LNG = 111_320 * Math.cos((43.7 * Math.PI) / 180);
const DECIMALS = 5;

export interface AddressPoint {
  address: string;
  longitude: number;
  latitude: number;
}

export interface StreetLine {
  /** "Queen St W" */
  name: string;
  /** The street's key, as the geocoder normalises it: "queen st w". */
  street: string;
  /** Distinct civic numbers on the whole street (all its lines). */
  rank: number;
  /** 'major' from MAJOR_ADDRESSES up. */
  class: 'major' | 'minor';
  /** Civic numbers supporting this line. */
  addresses: number;
  coordinates: Array<[number, number]>;
}

/** Local metres (x east, y north); fine for distances within the city. */
const toXY = (lng: number, lat: number): XY => [lng * M_PER_DEG_LNG, lat * M_PER_DEG_LAT];
const toLngLat = ([x, y]: XY): [number, number] => [Number((x / M_PER_DEG_LNG).toFixed(DECIMALS)), Number((y / M_PER_DEG_LAT).toFixed(DECIMALS))];
const dist = (a: XY, b: XY) => Math.hypot(a[0] - b[0], a[1] - b[1]);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

interface Numbered {
  n: number;
  at: XY;
}

/** Single-linkage clusters: points closer than gap, directly or through others, share one. */
function clusters(points: Numbered[], gap: number): Numbered[][] {
  const seen = new Uint8Array(points.length);
  const out: Numbered[][] = [];
  for (let i = 0; i < points.length; i++) {
    if (seen[i]) continue;
    seen[i] = 1;
    const group = [points[i]];
    for (let g = 0; g < group.length; g++) {
      for (let j = 0; j < points.length; j++) {
        if (!seen[j] && dist(group[g].at, points[j].at) < gap) {
          seen[j] = 1;
          group.push(points[j]);
        }
      }
    }
    out.push(group);
  }
  return out;
}

/**
 * A small cluster whose numbers all fall inside the range of a cluster of the same street at
 * least MISLABEL_RATIO times its size is left out: it is a mislabelled direction (DineSafe puts
 * three Leslieville places on "Queen St W"), and a wrong name is worse than a missing line.
 * Two real streets of one name (before amalgamation) are rarely so unequal and overlapping.
 */
function plausible(groups: Numbered[][]): Numbered[][] {
  const span = groups.map((g) => [Math.min(...g.map((p) => p.n)), Math.max(...g.map((p) => p.n))]);
  return groups.filter((g, i) => !groups.some((h, j) => h.length >= STREETS.MISLABEL_RATIO * g.length && span[j][0] <= span[i][0] && span[i][1] <= span[j][1]));
}

/**
 * Numbers off the street left out: a number farther than OUTLIER_M from the segment between the
 * median point of the three numbers before it and of the three after it (at an end, from the
 * line through the next two such medians). A far point with the right number is not the street.
 */
function withoutOutliers(run: Numbered[]): Numbered[] {
  if (run.length < 4) return run;
  const mid = (ps: Numbered[]): XY => [median(ps.map((q) => q.at[0])), median(ps.map((q) => q.at[1]))];
  return run.filter((p, i) => {
    let d: number;
    if (i === 0 || i === run.length - 1) {
      const inward = i === 0 ? run.slice(1, 7) : run.slice(-7, -1).reverse();
      const [a, b] = [mid(inward.slice(0, 3)), mid(inward.slice(3))];
      d = inward.length < 6 ? distToSegment(p.at, a, a) : distToLine(p.at, a, b);
    } else d = distToSegment(p.at, mid(run.slice(Math.max(0, i - 3), i)), mid(run.slice(i + 1, i + 4)));
    return d <= STREETS.OUTLIER_M;
  });
}

function distToLine(p: XY, a: XY, b: XY): number {
  const len = dist(a, b);
  if (!len) return dist(p, a);
  return Math.abs((b[0] - a[0]) * (a[1] - p[1]) - (a[0] - p[0]) * (b[1] - a[1])) / len;
}

/** Split where consecutive numbers are a gap apart. */
function splitAtGaps(run: Numbered[]): Numbered[][] {
  const out: Numbered[][] = [[]];
  run.forEach((p, i) => {
    if (i > 0 && dist(p.at, run[i - 1].at) >= STREETS.GAP_M) out.push([]);
    out[out.length - 1].push(p);
  });
  return out;
}

/** Each point averaged with up to SMOOTH_K neighbours each side (in order along the street): the two sides meet in its middle. */
function smooth(run: Numbered[]): XY[] {
  return run.map((_, i) => {
    // A window even about the point, narrowing at the ends, so the line keeps its full extent.
    const k = Math.min(STREETS.SMOOTH_K, i, run.length - 1 - i);
    const near = run.slice(i - k, i + k + 1);
    return [near.reduce((s, q) => s + q.at[0], 0) / near.length, near.reduce((s, q) => s + q.at[1], 0) / near.length];
  });
}

/**
 * The run re-ordered by where each number stands along the street. House numbers give the
 * street's direction but not the fine order: the two sides of Yonge are numbered up to 150 m
 * apart (689 faces 760), so in number order a line zigzags. A guide, the running median of
 * GUIDE_K numbers each side simplified, is followed instead, and each point placed by its
 * projection onto it.
 */
function alongTheStreet(run: Numbered[]): Numbered[] {
  if (run.length < 4) return run;
  const guide = simplifyLine(
    run.map((_, i) => {
      const k = Math.min(STREETS.GUIDE_K, i, run.length - 1 - i);
      const near = run.slice(i - k, i + k + 1);
      return [median(near.map((q) => q.at[0])), median(near.map((q) => q.at[1]))] as XY;
    }),
    STREETS.SIMPLIFY_M,
  );
  if (guide.length < 2 || lengthOf(guide) === 0) return run;
  const along = (p: XY) => {
    let best = Infinity;
    let at = 0;
    let start = 0;
    for (let i = 1; i < guide.length; i++) {
      const [a, b] = [guide[i - 1], guide[i]];
      const len = dist(a, b);
      const t = len ? Math.max(0, Math.min(1, ((p[0] - a[0]) * (b[0] - a[0]) + (p[1] - a[1]) * (b[1] - a[1])) / (len * len))) : 0;
      const d = Math.hypot(p[0] - (a[0] + t * (b[0] - a[0])), p[1] - (a[1] + t * (b[1] - a[1])));
      // Beyond the guide's ends the distance along runs on, so end points keep their order.
      const beyond = (i === 1 && t === 0 ? -1 : 0) * dist(p, a) + (i === guide.length - 1 && t === 1 ? dist(p, b) : 0);
      if (d < best) [best, at] = [d, start + t * len + beyond];
      start += len;
    }
    return at;
  };
  return run.map((p) => ({ p, s: along(p.at) })).sort((x, y) => x.s - y.s).map(({ p }) => p);
}

const lengthOf = (line: XY[]) => line.reduce((s, p, i) => (i ? s + dist(p, line[i - 1]) : 0), 0);

/** Street lines from address points, most-supported streets first. */
export function buildStreets(points: AddressPoint[]): StreetLine[] {
  const byStreet = new Map<string, Map<number, XY[]>>();
  // The ways each street is written, to label it as the data writes it most often.
  const written = new Map<string, Map<string, number>>();
  for (const p of points) {
    const parsed = parseAddress(p.address);
    if (!parsed || !Number.isFinite(p.longitude) || !Number.isFinite(p.latitude)) continue;
    const numbers = byStreet.get(parsed.street) ?? new Map<number, XY[]>();
    byStreet.set(parsed.street, numbers);
    numbers.set(parsed.number, [...(numbers.get(parsed.number) ?? []), toXY(p.longitude, p.latitude)]);
    const forms = written.get(parsed.street) ?? new Map<string, number>();
    written.set(parsed.street, forms);
    forms.set(parsed.streetText, (forms.get(parsed.streetText) ?? 0) + 1);
  }
  const labelOf = (street: string): string => {
    let best = street;
    let most = 0;
    for (const [form, n] of written.get(street) ?? []) if (n > most) [best, most] = [form, n];
    return streetLabel(best);
  };

  const lines: Array<{ street: string; rank: number; addresses: number; xy: XY[] }> = [];
  for (const [street, numbers] of byStreet) {
    const all: Numbered[] = [...numbers].map(([n, ats]) => ({ n, at: [median(ats.map((a) => a[0])), median(ats.map((a) => a[1]))] }));
    for (const cluster of plausible(clusters(all, STREETS.GAP_M))) {
      const ordered = withoutOutliers(cluster.sort((a, b) => a.n - b.n));
      for (const run of splitAtGaps(ordered)) {
        if (run.length < STREETS.MIN_ADDRESSES) continue;
        const xy = simplifyLine(smooth(alongTheStreet(run)), STREETS.SIMPLIFY_M);
        if (lengthOf(xy) < STREETS.MIN_LENGTH_M) continue;
        lines.push({ street, rank: 0, addresses: run.length, xy });
      }
    }
  }
  // The rank counts the numbers the drawn lines stand on, the street's whole length.
  const rank = new Map<string, number>();
  for (const l of lines) rank.set(l.street, (rank.get(l.street) ?? 0) + l.addresses);
  meetAtDivides(lines);

  return lines
    .map((l): StreetLine => {
      const r = rank.get(l.street)!;
      return { name: labelOf(l.street), street: l.street, rank: r, class: r >= STREETS.MAJOR_ADDRESSES ? 'major' : 'minor', addresses: l.addresses, coordinates: l.xy.map(toLngLat) };
    })
    .sort((a, b) => b.rank - a.rank || a.name.localeCompare(b.name) || b.addresses - a.addresses);
}

/**
 * "bloor st w" and "bloor st e" are one street divided at Yonge, each half ending at its last
 * address: where two such halves have ends within DIVIDE_M of each other, both are carried on
 * to the midpoint of those ends.
 */
function meetAtDivides(lines: Array<{ street: string; xy: XY[] }>): void {
  const halves = new Map<string, Array<{ street: string; xy: XY[] }>>();
  for (const l of lines) {
    const m = /^(.+) ([wens])$/.exec(l.street);
    if (m) halves.set(m[1], [...(halves.get(m[1]) ?? []), l]);
  }
  const opposite: Record<string, string> = { w: 'e', e: 'w', n: 's', s: 'n' };
  for (const group of halves.values()) {
    for (const a of group) {
      for (const b of group) {
        if (a.street >= b.street || opposite[a.street.slice(-1)] !== b.street.slice(-1)) continue;
        let best: { d: number; ai: number; bi: number } | null = null;
        for (const ai of [0, a.xy.length - 1]) {
          for (const bi of [0, b.xy.length - 1]) {
            const d = dist(a.xy[ai], b.xy[bi]);
            if (d < STREETS.DIVIDE_M && (!best || d < best.d)) best = { d, ai, bi };
          }
        }
        if (!best) continue;
        const mid: XY = [(a.xy[best.ai][0] + b.xy[best.bi][0]) / 2, (a.xy[best.ai][1] + b.xy[best.bi][1]) / 2];
        if (best.ai === 0) a.xy.unshift(mid);
        else a.xy.push(mid);
        if (best.bi === 0) b.xy.unshift(mid);
        else b.xy.push(mid);
      }
    }
  }
}
