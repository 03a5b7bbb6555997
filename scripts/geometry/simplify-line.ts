// Douglas-Peucker line simplification, shared by the map's streets (local metres) and its
// neighbourhood outlines (longitude/latitude measured in metres), so both keep the same rule.

export type XY = [number, number];

/** Distance in the plane from p to the segment a–b. */
export function distToSegment(p: XY, a: XY, b: XY): number {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const len2 = dx * dx + dy * dy;
  const t = len2 ? Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2)) : 0;
  return Math.hypot(p[0] - (a[0] + t * dx), p[1] - (a[1] + t * dy));
}

/**
 * Douglas-Peucker on an open run of points; both ends are kept. `measure` is the distance from
 * a point to a segment in the unit of `tol` (the plane's by default).
 */
export function simplifyLine<P>(run: P[], tol: number, measure: (p: P, a: P, b: P) => number = distToSegment as never): P[] {
  if (run.length <= 2) return run;
  const keep = new Uint8Array(run.length);
  keep[0] = keep[run.length - 1] = 1;
  const stack: Array<[number, number]> = [[0, run.length - 1]];
  while (stack.length) {
    const [i, j] = stack.pop()!;
    let worst = -1;
    let at = -1;
    for (let k = i + 1; k < j; k++) {
      const d = measure(run[k], run[i], run[j]);
      if (d > worst) [worst, at] = [d, k];
    }
    if (worst > tol) {
      keep[at] = 1;
      stack.push([i, at], [at, j]);
    }
  }
  return run.filter((_, i) => keep[i]);
}
