import path from 'node:path';
import { appGraph, cycles, fileGraph, formatGraph, importsOfApps, readmeGraph, type Graph } from '../../scripts/app-graph';

// The walls between apps (shared/DESIGN.md "Walls that hold"), checked from the imports by
// scripts/app-graph.ts, which `npm run lint` also runs.

describe('the app graph', () => {
  const imports = importsOfApps();
  const graph = appGraph(imports);

  test('has no cycle: no two apps lean on each other, directly or round about', () => {
    expect(cycles(graph).map((c) => c.join(' -> '))).toEqual([]);
  });

  test('the server core (index.ts, app.ts, config.ts, db/, http/ …) imports no app', () => {
    const fromCore = imports.filter((i) => i.fromLayer.kind === 'core').map((i) => `${i.from} -> apps/${i.to}`);
    expect(fromCore).toEqual([]);
  });

  test('server/apps/README.md draws the graph as the imports make it', () => {
    expect(readmeGraph()).toBe(formatGraph(graph));
  });

  test('no two server files load each other, directly or round about (type-only imports aside)', () => {
    const files = fileGraph();
    expect(cycles(files).map((c) => c.join(' -> '))).toEqual([]);
    // Guards against passing because nothing was read: a known runtime import, and a type-only one left out.
    expect(files.get(path.join('apps', 'articles', 'queries.ts'))).toContain(path.join('apps', 'articles', 'serialize.ts'));
    expect(files.get(path.join('apps', 'home', 'queries.ts'))).not.toContain(path.join('apps', 'events', 'serialize.ts'));
  });

  test('sees the imports it must: a known edge and a known import of the wiring', () => {
    // Guards the checks above against passing because the parser found nothing.
    expect(graph.get('bookmarks')).toContain('saves');
    expect(imports.some((i) => i.from === path.join('apps', 'index.ts'))).toBe(true);
  });
});

describe('the cycle finder', () => {
  test('names a direct pair and a longer loop, and passes a DAG', () => {
    const g = (edges: Record<string, string[]>): Graph => new Map(Object.entries(edges).map(([k, v]) => [k, new Set(v)]));
    expect(cycles(g({ a: ['b'], b: ['a'] }))).toEqual([['a', 'b', 'a']]);
    expect(cycles(g({ a: ['b'], b: ['c'], c: ['a'], d: ['a'] }))).toEqual([['a', 'b', 'c', 'a']]);
    expect(cycles(g({ a: ['b', 'c'], b: ['c'], d: ['a'] }))).toEqual([]);
  });
});
