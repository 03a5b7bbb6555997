import { areaOf, summarise, type CpuProfile } from './cpu-profile';

// The reading of a `node --cpu-prof` profile (scripts/bench/cpu-profile.ts): each sample's time
// goes to its frame's area and function, within the window asked for.
describe('cpu profile summary', () => {
  const frame = (functionName: string, url = '', lineNumber = 0) => ({ functionName, url, lineNumber });

  test('areas: PGlite’s WebAssembly, a package, the app’s files by folder, node, the VM’s own', () => {
    expect(areaOf(frame('', 'wasm://wasm/0123abcd'))).toBe('WebAssembly (PGlite)');
    expect(areaOf(frame('query', 'file:///w/node_modules/@electric-sql/pglite/dist/index.js'))).toBe('PGlite (JavaScript)');
    expect(areaOf(frame('send', 'file:///w/node_modules/express/lib/response.js'))).toBe('express');
    expect(areaOf(frame('fetch', 'file:///w/node_modules/pg-boss/src/manager.js'))).toBe('pg-boss');
    expect(areaOf(frame('serve', 'file:///w/server/http/guest-response-cache.ts'))).toBe('server/http/guest-response-cache.ts');
    expect(areaOf(frame('listHub', 'file:///w/server/apps/places/hub/list.ts'))).toBe('server/apps/places');
    expect(areaOf(frame('writev', 'node:internal/stream_base_commons'))).toBe('node internals');
    expect(areaOf(frame('(garbage collector)'))).toBe('(garbage collector)');
    expect(areaOf(frame('brotliCompressSync'))).toBe('(native)');
  });

  // Three nodes; samples 1 ms apart; a sample's time is the delta to the next one.
  const profile: CpuProfile = {
    nodes: [
      { id: 1, callFrame: frame('(root)'), children: [2, 3] },
      { id: 2, callFrame: frame('', 'wasm://wasm/abc'), children: [] },
      { id: 3, callFrame: frame('serve', 'file:///w/server/http/guest-response-cache.ts', 9), children: [] },
      { id: 4, callFrame: frame('(idle)'), children: [] },
    ],
    startTime: 0,
    endTime: 6000,
    samples: [2, 2, 3, 4, 3, 2],
    timeDeltas: [1000, 1000, 1000, 1000, 1000, 1000],
  };

  test('self time by area and by function; the last sample, of unknown length, counts nothing', () => {
    const s = summarise(profile);
    expect(s.totalMs).toBe(5);
    expect(s.areas).toEqual([
      { name: 'WebAssembly (PGlite)', ms: 2 },
      { name: 'server/http/guest-response-cache.ts', ms: 2 },
      { name: '(idle)', ms: 1 },
    ]);
    expect(s.functions[1]).toEqual({ name: 'serve server/http/guest-response-cache.ts:10', area: 'server/http/guest-response-cache.ts', ms: 2 });
  });

  test('a window keeps the samples taken within it (ms from the start)', () => {
    const s = summarise(profile, 2.5, 5);
    expect(s.totalMs).toBe(3);
    expect(s.areas.map((a) => [a.name, a.ms])).toEqual([
      ['server/http/guest-response-cache.ts', 2],
      ['(idle)', 1],
    ]);
  });
});
