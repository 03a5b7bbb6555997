// Reads a `node --cpu-prof` profile (e.g. the bench server's, BENCH_CPU_PROF=<dir> npm run
// bench:pglite) and prints where its CPU went: by area (PGlite's WebAssembly, each package, the
// app's own files, node's internals, the garbage collector, idle) and the functions with the
// most self time. A window (seconds from the profile's start) leaves out the start-up and
// migrations, or keeps one group of rows.
//
//   npx tsx scripts/bench/cpu-profile.ts /tmp/prof/CPU.*.cpuprofile
//   npx tsx scripts/bench/cpu-profile.ts FILE --from 20 --to 80 --top 40
import fs from 'node:fs';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  /** Microseconds since the sample before. */
  timeDeltas: number[];
}

/** Where a frame's time goes in the summary: the area of the code it runs. */
export function areaOf(frame: CallFrame): string {
  const { url, functionName } = frame;
  if (!url) {
    if (functionName.startsWith('(')) return functionName; // (idle), (program), (garbage collector), (root)
    return '(native)';
  }
  if (url.startsWith('wasm://')) return 'WebAssembly (PGlite)';
  if (url.startsWith('node:')) return 'node internals';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1] === '@electric-sql/pglite' ? 'PGlite (JavaScript)' : pkg[1];
  const app = /\/(server|shared|scripts|migrations|templates)\/(.*)$/.exec(url);
  if (app) return `${app[1]}/${app[2].split('/').slice(0, app[1] === 'server' ? 2 : 1).join('/')}`;
  return url;
}

export interface Summary {
  totalMs: number;
  areas: Array<{ name: string; ms: number }>;
  functions: Array<{ name: string; area: string; ms: number }>;
}

/** Self time per area and per function over the samples between fromMs and toMs (from the profile's start). */
export function summarise(profile: CpuProfile, fromMs = 0, toMs = Infinity): Summary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const areas = new Map<string, number>();
  const functions = new Map<string, { name: string; area: string; ms: number }>();
  let at = 0;
  let totalMs = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    // A sample's time is the delta to the next one (the last one's is unknown: none).
    at += profile.timeDeltas[i] / 1000;
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    if (at < fromMs || at > toMs || ms <= 0) continue;
    const node = byId.get(profile.samples[i]);
    if (!node) continue;
    const area = areaOf(node.callFrame);
    totalMs += ms;
    areas.set(area, (areas.get(area) ?? 0) + ms);
    const { functionName, url, lineNumber } = node.callFrame;
    const name = `${functionName || '(anonymous)'} ${url ? `${url.replace(/^.*\/(node_modules|server|shared|scripts)\//, '$1/')}:${lineNumber + 1}` : ''}`.trim();
    const f = functions.get(name) ?? { name, area, ms: 0 };
    f.ms += ms;
    functions.set(name, f);
  }
  const sorted = <T extends { ms: number }>(xs: Iterable<T>) => [...xs].sort((a, b) => b.ms - a.ms);
  return { totalMs, areas: sorted([...areas].map(([name, ms]) => ({ name, ms }))), functions: sorted(functions.values()) };
}

function print(file: string, s: Summary, top: number, window: string): void {
  const busy = s.totalMs - (s.areas.find((a) => a.name === '(idle)')?.ms ?? 0);
  const pct = (ms: number, of: number) => `${((ms / of) * 100).toFixed(1).padStart(5)}%`;
  console.log(`${file}${window}: ${(s.totalMs / 1000).toFixed(1)} s sampled, ${(busy / 1000).toFixed(1)} s busy (shares below: of busy time)\n`);
  // The areas above 0.1% of the busy time.
  for (const a of s.areas) if (a.name !== '(idle)' && a.ms >= busy / 1000) console.log(`${pct(a.ms, busy)} ${(a.ms / 1000).toFixed(2).padStart(7)} s  ${a.name}`);
  console.log(`\nTop ${top} functions by self time:`);
  for (const f of s.functions.filter((x) => x.area !== '(idle)').slice(0, top)) console.log(`${pct(f.ms, busy)} ${f.ms.toFixed(0).padStart(7)} ms  ${f.name}  [${f.area}]`);
}

if (require.main === module) {
  const args = process.argv.slice(2);
  const option = (name: string) => {
    const i = args.indexOf(name);
    if (i < 0) return undefined;
    const [, value] = args.splice(i, 2);
    const n = Number(value);
    if (!Number.isFinite(n)) throw new Error(`${name} needs a number, got "${value}"`);
    return n;
  };
  const from = option('--from');
  const to = option('--to');
  const top = option('--top') ?? 25;
  if (!args.length) {
    console.error('usage: npx tsx scripts/bench/cpu-profile.ts FILE.cpuprofile… [--from s] [--to s] [--top n]');
    process.exit(2);
  }
  const window = from !== undefined || to !== undefined ? ` (${from ?? 0} s to ${to ?? 'the end'})` : '';
  for (const file of args) {
    const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
    print(file, summarise(profile, (from ?? 0) * 1000, to === undefined ? Infinity : to * 1000), top, window);
    console.log('');
  }
}
