import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';

// A small disk under a directory, to fill and free in tests: a real tmpfs when this process may
// mount one (root, and the container allows it), otherwise fault injection: fs.promises.writeFile
// under the directory writes what fits and then throws ENOSPC, as a full disk does.
// SMALL_DISK=fault-injection forces the second way (to test it as root too).

export type SmallDiskMode = 'tmpfs' | 'fault-injection';

export interface SmallDisk {
  readonly mode: SmallDiskMode;
  readonly dir: string;
  /** Takes all the space but about `roomBytes`, so the next larger write fails half-way. */
  fill(roomBytes?: number): Promise<void>;
  /** Gives back what fill took. */
  free(): Promise<void>;
  /** Every file under the disk but fill's own, relative to it. */
  files(): string[];
  /** Unmounts (or stops injecting); the directory stays, empty. */
  close(): Promise<void>;
}

export const SMALL_DISK_BYTES = 2 * 1024 * 1024;
const FILLER = '.small-disk-filler';

function tryMount(dir: string, bytes: number): boolean {
  if (process.getuid?.() !== 0) return false;
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes}`, 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function unmount(dir: string): void {
  try {
    execFileSync('umount', [dir], { stdio: 'ignore' });
  } catch {
    // Still busy (a file open under it): detach it now, the kernel frees it when that closes.
    execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
  }
}

/** Which way small disks will be made here: checked once by mounting (and unmounting) a probe. */
export function smallDiskMode(): SmallDiskMode {
  if (process.env.SMALL_DISK === 'fault-injection') return 'fault-injection';
  const probe = fs.mkdtempSync(path.join(os.tmpdir(), 'small-disk-probe-'));
  try {
    if (!tryMount(probe, 64 * 1024)) return 'fault-injection';
    unmount(probe);
    return 'tmpfs';
  } finally {
    fs.rmdirSync(probe);
  }
}

function listFiles(root: string): string[] {
  if (!fs.existsSync(root)) return [];
  return (fs.readdirSync(root, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((d) => d.isFile())
    .map((d) => path.relative(root, path.join(d.parentPath, d.name)))
    .filter((f) => f !== FILLER)
    .sort();
}

export async function createSmallDisk(dir: string, mode: SmallDiskMode, bytes = SMALL_DISK_BYTES): Promise<SmallDisk> {
  fs.mkdirSync(dir, { recursive: true });
  if (mode === 'tmpfs' && tryMount(dir, bytes)) return tmpfsDisk(dir);
  if (mode === 'tmpfs') throw new Error(`small disk: could not mount a tmpfs on ${dir}`);
  return injectedDisk(dir);
}

function tmpfsDisk(dir: string): SmallDisk {
  const filler = path.join(dir, FILLER);
  return {
    mode: 'tmpfs',
    dir,
    async fill(roomBytes = 0) {
      const fd = fs.openSync(filler, 'a');
      const chunk = Buffer.alloc(64 * 1024, 1);
      try {
        for (;;) fs.writeSync(fd, chunk);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
      } finally {
        fs.closeSync(fd);
      }
      // Whatever the last write squeezed in, give back roomBytes (tmpfs frees whole pages).
      const size = fs.statSync(filler).size;
      fs.truncateSync(filler, Math.max(0, size - roomBytes));
    },
    async free() {
      fs.rmSync(filler, { force: true });
    },
    files: () => listFiles(dir),
    async close() {
      unmount(dir);
    },
  };
}

// One stand-in for fs.promises.writeFile serves every injected disk; the real one comes back
// when the last disk closes. null room: space enough; a number: the bytes left before ENOSPC.
const injected = new Map<string, { room: number | null }>();
const realWriteFile = fs.promises.writeFile;

const writeFileOnSmallDisks: typeof fs.promises.writeFile = async (file, data, options) => {
  const resolved = typeof file === 'string' ? path.resolve(file) : null;
  const disk = resolved === null ? undefined : [...injected].find(([root]) => resolved.startsWith(root))?.[1];
  if (!disk || disk.room === null) return realWriteFile(file, data, options);
  const bytes = typeof data === 'string' ? Buffer.from(data) : Buffer.from(data as Uint8Array);
  if (bytes.length <= disk.room) {
    disk.room -= bytes.length;
    return realWriteFile(file, bytes, options);
  }
  // What fits is written, as write(2) does before it fails: the half-written file is real.
  await realWriteFile(file, bytes.subarray(0, disk.room), options);
  disk.room = 0;
  throw Object.assign(new Error(`ENOSPC: no space left on device, write '${String(file)}'`), { errno: -28, code: 'ENOSPC', syscall: 'write', path: file });
};

function injectedDisk(dir: string): SmallDisk {
  const root = path.resolve(dir) + path.sep;
  const disk: { room: number | null } = { room: null };
  injected.set(root, disk);
  fs.promises.writeFile = writeFileOnSmallDisks;
  return {
    mode: 'fault-injection',
    dir,
    async fill(roomBytes = 0) {
      disk.room = roomBytes;
    },
    async free() {
      disk.room = null;
    },
    files: () => listFiles(dir),
    async close() {
      injected.delete(root);
      if (!injected.size) fs.promises.writeFile = realWriteFile;
    },
  };
}
