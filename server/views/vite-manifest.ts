import fs from 'node:fs';
import path from 'node:path';

// Reads Vite's manifest and turns an island name into the tags the layout prints: the
// entry's <script type="module">, <link rel="modulepreload"> for the chunks it imports, and
// its CSS; and a page type's stylesheet name into its built file. In development the manifest
// is re-read when it changes (vite build --watch).

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

export interface IslandAssets {
  scripts: string[];
  preloads: string[];
  styles: string[];
}

export class ViteManifest {
  private manifest: Manifest = {};
  private mtimeMs = -1;

  constructor(
    private readonly staticDir: string,
    private readonly publicBase = '/static/dist/',
    private readonly watch = false,
  ) {}

  private file(): string {
    return path.join(this.staticDir, 'dist', '.vite', 'manifest.json');
  }

  private load(): Manifest {
    try {
      const stat = fs.statSync(this.file());
      if (stat.mtimeMs !== this.mtimeMs && (this.watch || this.mtimeMs === -1)) {
        this.manifest = JSON.parse(fs.readFileSync(this.file(), 'utf8')) as Manifest;
        this.mtimeMs = stat.mtimeMs;
      }
    } catch {
      // No build yet: pages still render, islands simply do not mount.
    }
    return this.manifest;
  }

  has(island: string): boolean {
    return Boolean(this.load()[`islands/${island}/main.tsx`]);
  }

  /**
   * The page type's one stylesheet (static/css/bundles/NAME.css): the built, hashed file, or
   * before a build the source, whose @imports the browser follows.
   */
  stylesheet(name: string): string {
    const source = `static/css/bundles/${name}.css`;
    const built = this.load()[source];
    return built ? this.publicBase + built.file : `/${source}`;
  }

  assetsFor(islands: string[]): IslandAssets {
    const manifest = this.load();
    const scripts: string[] = [];
    const preloads = new Set<string>();
    const styles = new Set<string>();
    const seen = new Set<string>();
    const walk = (key: string) => {
      if (seen.has(key)) return;
      seen.add(key);
      const chunk = manifest[key];
      if (!chunk) return;
      for (const css of chunk.css ?? []) styles.add(this.publicBase + css);
      for (const imp of chunk.imports ?? []) {
        const c = manifest[imp];
        if (c) preloads.add(this.publicBase + c.file);
        walk(imp);
      }
    };
    for (const island of islands) {
      const key = `islands/${island}/main.tsx`;
      const entry = manifest[key];
      if (!entry) continue;
      scripts.push(this.publicBase + entry.file);
      walk(key);
    }
    return { scripts, preloads: [...preloads], styles: [...styles] };
  }
}
