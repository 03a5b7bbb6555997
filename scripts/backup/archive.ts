import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';

// What `npm run backup` writes and `npm run restore` reads: one gzipped tar holding
// manifest.json, the database's dump (pg_dump's custom format, or PGlite's own dump of its data
// directory) and media/, the uploaded and generated files (DATA_DIR/media) under their keys.

export const MANIFEST = 'manifest.json';
export const MEDIA = 'media';
export const DUMP_FILE = { postgres: 'database.pgdump', pglite: 'database.pglite.tar.gz' } as const;

export type DatabaseKind = keyof typeof DUMP_FILE;

export interface Manifest {
  format: 'guide-backup';
  version: 1;
  createdAt: string;
  database: DatabaseKind;
}

export function readManifest(dir: string): Manifest {
  let m: Partial<Manifest>;
  try {
    m = JSON.parse(fs.readFileSync(path.join(dir, MANIFEST), 'utf8')) as Partial<Manifest>;
  } catch {
    throw new Error(`Not a backup of this site: the archive has no readable ${MANIFEST}.`);
  }
  if (m.format !== 'guide-backup' || m.version !== 1 || !(m.database === 'postgres' || m.database === 'pglite')) {
    throw new Error(`Not a backup this version can restore (${MANIFEST}: ${JSON.stringify(m)}).`);
  }
  return m as Manifest;
}

/** Runs a program to its end; a non-zero exit is an error carrying what it wrote to stderr. */
export function run(cmd: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 8_000) stderr += chunk.toString();
    });
    child.on('error', (err) => reject(new Error(`${cmd} could not start: ${err.message}`)));
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} failed (exit ${code}): ${stderr.trim()}`))));
  });
}

/** True when `dir` is missing or holds no file at any depth (empty folders do not count). */
export function holdsNoFile(dir: string): boolean {
  if (!fs.existsSync(dir)) return true;
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).every((e) => !e.isFile());
}

/** A UTC stamp for names that sort by time: 20261127T064221Z. */
export function utcStamp(d: Date): string {
  return d.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
}
