import fs from 'node:fs';
import path from 'node:path';
import { parseSync } from '@swc/core';

// The walls between apps (shared/DESIGN.md "Walls that hold"), read from the imports
// themselves: apps depend on each other in one direction only (the app graph is a DAG), the
// server core never imports an app, server/apps/README.md draws the graph as it is, and no
// two server files load each other (a runtime import circle, such as queries.ts ↔ serialize.ts).
// server/apps/index.ts (the registry that wires apps into the core) and server/testing/ may
// import any app. `npm run lint` runs this file; server/apps/app-graph.test.ts tests it.

const SERVER = path.resolve(__dirname, '..', 'server');
const APPS = path.join(SERVER, 'apps');
const README = path.join(APPS, 'README.md');

export type Layer = { kind: 'app'; app: string } | { kind: 'core' } | { kind: 'wiring' };

/** Where a file under server/ sits: in an app, in the core, or in what wires apps together. */
export function layerOf(file: string): Layer {
  const rel = path.relative(SERVER, file).split(path.sep);
  if (rel[0] === 'testing') return { kind: 'wiring' };
  if (rel[0] !== 'apps') return { kind: 'core' };
  if (rel.length === 2) return { kind: 'wiring' }; // apps/index.ts, app-graph.test.ts
  return { kind: 'app', app: rel[1] };
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    if (d.isDirectory()) return d.name === 'node_modules' ? [] : sourceFiles(p);
    return /\.tsx?$/.test(d.name) && !d.name.endsWith('.d.ts') ? [p] : [];
  });
}

const parse = (file: string) => parseSync(fs.readFileSync(file, 'utf8'), { syntax: 'typescript', tsx: file.endsWith('.tsx') });

/** Every module a file names: static and dynamic imports, re-exports, require() and import('x') types. */
function importedSpecifiers(file: string): string[] {
  const ast = parse(file);
  const found: string[] = [];
  const visit = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach(visit);
    const n = node as Record<string, unknown> & { type?: string };
    if ((n.type === 'ImportDeclaration' || n.type === 'ExportNamedDeclaration' || n.type === 'ExportAllDeclaration') && n.source) {
      found.push((n.source as { value: string }).value);
    } else if (n.type === 'TsImportType') {
      found.push((n.argument as { value: string }).value);
    } else if (n.type === 'CallExpression') {
      const callee = n.callee as { type: string; value?: string };
      const [first] = (n.arguments as Array<{ expression: { type: string; value?: string } }>) ?? [];
      const isImport = callee.type === 'Import' || (callee.type === 'Identifier' && callee.value === 'require');
      if (isImport && first?.expression.type === 'StringLiteral') found.push(first.expression.value as string);
    }
    for (const value of Object.values(n)) if (value && typeof value === 'object') visit(value);
  };
  visit(ast.body);
  return found;
}

export interface Import {
  from: string; // file, relative to server/
  to: string; // module, relative to server/apps/ when it is in an app
  fromLayer: Layer;
  toApp: string;
}

/** The imports under server/ whose target is inside an app. */
export function importsOfApps(): Import[] {
  const out: Import[] = [];
  for (const file of sourceFiles(SERVER)) {
    for (const spec of importedSpecifiers(file)) {
      if (!spec.startsWith('.')) continue;
      const target = path.resolve(path.dirname(file), spec);
      const rel = path.relative(APPS, target).split(path.sep);
      if (rel[0] === '..' || rel.length < 2) continue; // outside apps/, or the registry itself
      out.push({ from: path.relative(SERVER, file), to: rel.join('/'), fromLayer: layerOf(file), toApp: rel[0] });
    }
  }
  return out;
}

export type Graph = Map<string, Set<string>>;

/** The modules a file loads as it loads: its imports and re-exports, less those TypeScript erases (type only). */
function loadedSpecifiers(file: string): string[] {
  return (parse(file).body as unknown as Array<{ type: string; typeOnly?: boolean; source?: { value: string }; specifiers?: Array<{ type: string; isTypeOnly?: boolean }> }>).flatMap((n) => {
    const erased = n.typeOnly || (n.type === 'ImportDeclaration' && n.specifiers!.length > 0 && n.specifiers!.every((s) => s.type === 'ImportSpecifier' && s.isTypeOnly));
    const loads = ['ImportDeclaration', 'ExportNamedDeclaration', 'ExportAllDeclaration'].includes(n.type) && n.source && !erased;
    return loads ? [n.source!.value] : [];
  });
}

/** file → the server files it loads (paths relative to server/). */
export function fileGraph(): Graph {
  const graph: Graph = new Map();
  for (const file of sourceFiles(SERVER)) {
    const loaded = new Set<string>();
    for (const spec of loadedSpecifiers(file)) {
      if (!spec.startsWith('.')) continue;
      const base = path.resolve(path.dirname(file), spec);
      const target = [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')].find((f) => fs.existsSync(f) && fs.statSync(f).isFile());
      if (target?.startsWith(SERVER + path.sep)) loaded.add(path.relative(SERVER, target));
    }
    graph.set(path.relative(SERVER, file), loaded);
  }
  return graph;
}

/** app → the other apps its files import (the registry's and server/testing/'s imports are wiring, left out). */
export function appGraph(imports: Import[]): Graph {
  const graph: Graph = new Map();
  for (const i of imports) {
    if (i.fromLayer.kind !== 'app' || i.fromLayer.app === i.toApp) continue;
    if (!graph.has(i.fromLayer.app)) graph.set(i.fromLayer.app, new Set());
    graph.get(i.fromLayer.app)!.add(i.toApp);
  }
  return graph;
}

/** Every cycle's path (a → b → … → a), one per strongly connected part; empty for a DAG. */
export function cycles(graph: Graph): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): void => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of [...(graph.get(node) ?? [])].sort()) {
      if (state.get(next) === 'open') found.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
  return found;
}

/** The graph as README.md writes it: one `app -> dep, dep` line per app that imports another. */
export function formatGraph(graph: Graph): string {
  return [...graph.keys()]
    .sort()
    .map((app) => `${app} -> ${[...graph.get(app)!].sort().join(', ')}`)
    .join('\n');
}

export function readmeGraph(): string {
  const block = /<!-- app-graph -->\s*```text\n([\s\S]*?)```/.exec(fs.readFileSync(README, 'utf8'));
  if (!block) throw new Error('server/apps/README.md has no ```text block after <!-- app-graph -->');
  return block[1].trim();
}

/** Everything wrong with the app graph, in words; empty when the walls hold. */
export function appGraphProblems(): string[] {
  const imports = importsOfApps();
  const graph = appGraph(imports);
  const problems = cycles(graph).map((c) => `apps lean on each other: ${c.join(' -> ')}`);
  for (const c of cycles(fileGraph())) problems.push(`files load each other: ${c.join(' -> ')}`);
  for (const i of imports) if (i.fromLayer.kind === 'core') problems.push(`the server core imports an app: ${i.from} -> apps/${i.to}`);
  if (readmeGraph() !== formatGraph(graph)) problems.push(`server/apps/README.md does not draw the graph as the imports make it; it should read:\n${formatGraph(graph)}`);
  return problems;
}

if (require.main === module) {
  const problems = appGraphProblems();
  for (const p of problems) console.error(p);
  if (problems.length) process.exit(1);
  console.log('app graph: a DAG, the core imports no app, server/apps/README.md up to date, no file import circle');
}
