// The npm registry these machines reach lacks some platform-specific optional binaries
// (@swc/core-darwin-*, @unrs/resolver-binding-win32-*, …). `npm install` then leaves them out
// of package-lock.json, and `npm ci` refuses the lock as "out of sync". This adds the missing
// entries the way npm writes them for a full registry: optional, with the os/cpu/libc they
// need, so `npm ci` accepts the lock and, on this platform, skips them without a download.
// Run it after every `npm install` that changes the lock: `npm run lockfile:complete`.
import fs from 'node:fs';
import path from 'node:path';

interface LockPackage {
  version?: string;
  license?: string;
  dev?: boolean;
  optional?: boolean;
  engines?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  os?: string[];
  cpu?: string[];
  libc?: string[];
}

const PLATFORM = /-(darwin|linux|win32|android|freebsd|openharmony)-(arm64|x64|arm|ia32|ppc64|s390x|loong64|riscv64)/;

export function completeLockfile(lock: { packages: Record<string, LockPackage> }): string[] {
  const packages = lock.packages;
  const added: string[] = [];
  for (const meta of Object.values(packages)) {
    for (const [dep, version] of Object.entries(meta.optionalDependencies ?? {})) {
      const key = `node_modules/${dep}`;
      const m = PLATFORM.exec(dep);
      if (packages[key] || !m) continue;
      const entry: LockPackage = { version, cpu: [m[2]], license: meta.license ?? 'MIT', optional: true, os: [m[1]] };
      if (meta.dev) entry.dev = true;
      if (meta.engines) entry.engines = meta.engines;
      if (dep.includes('musl')) entry.libc = ['musl'];
      else if (m[1] === 'linux') entry.libc = ['glibc'];
      packages[key] = entry;
      added.push(`${dep}@${version}`);
    }
  }
  // npm keeps the root first and the rest sorted.
  lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : a > b ? 1 : 0)));
  return added;
}

if (require.main === module) {
  const file = path.resolve(__dirname, '..', 'package-lock.json');
  const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
  const added = completeLockfile(lock);
  fs.writeFileSync(file, JSON.stringify(lock, null, 2) + '\n');
  console.log(added.length ? `added ${added.length} platform entries: ${added.join(', ')}` : 'package-lock.json is complete');
}
