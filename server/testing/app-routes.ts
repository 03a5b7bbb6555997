import type { Express } from 'express';

// The routes an Express 5 app really serves, read from its router stack, so a test that must
// cover every route can tell when one is added.

export interface AppRoute {
  /** Upper case; 'USE' for middleware mounted on a path (static files, the age gate). */
  method: string;
  /** The route's path pattern as written (the first one when a route has several). */
  path: string;
}

interface Layer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
  rawPath?: string | string[];
}

const first = (p: string | string[] | undefined): string => (Array.isArray(p) ? p[0] : p ?? '/');

/** Every route and path-mounted middleware, in stack order, each once as `METHOD path`. */
export function appRoutes(app: Express): AppRoute[] {
  const seen = new Set<string>();
  const out: AppRoute[] = [];
  const add = (method: string, path: string) => {
    const key = `${method} ${path}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push({ method, path });
  };
  const walk = (stack: Layer[], prefix: string) => {
    for (const layer of stack) {
      const mount = first(layer.rawPath);
      if (layer.route) {
        for (const method of Object.keys(layer.route.methods)) if (method !== '_all') add(method.toUpperCase(), prefix + first(layer.route.path));
      } else if (layer.handle?.stack) {
        walk(layer.handle.stack, mount === '/' ? prefix : prefix + mount);
      } else if (mount !== '/') {
        add('USE', prefix + mount);
      }
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack, '');
  return out;
}

/** The names of a path pattern's parameters (`:id`, `*splat`), in order. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/[:*]([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]);
}
