import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { JEMALLOC_CONF, jemallocInstalled, withJemalloc } from './jemalloc';

// The deployment's node processes (npm run stack, the bench) run with jemalloc preloaded when
// Debian's libjemalloc2 is installed, and on glibc's malloc when it is not or MALLOC=system.

/** The module loaded afresh with JEMALLOC_PATH set to `library`. */
function withLibraryAt(library: string): typeof import('./jemalloc') {
  let fresh: typeof import('./jemalloc') | undefined;
  jest.isolateModules(() => {
    process.env.JEMALLOC_PATH = library;
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- isolateModules loads modules afresh only through require
      fresh = require('./jemalloc') as typeof import('./jemalloc');
    } finally {
      delete process.env.JEMALLOC_PATH;
    }
  });
  return fresh!;
}

describe('withJemalloc', () => {
  const installed = jemallocInstalled();

  test('MALLOC=system leaves the environment as it is', () => {
    const env = { MALLOC: 'system', PATH: '/usr/bin' };
    expect(withJemalloc(env)).toBe(env);
  });

  test('preloads the library before what was preloaded, once, with its settings unless given', () => {
    const library = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'jemalloc-')), 'libjemalloc.so.2');
    fs.writeFileSync(library, '');
    const { withJemalloc: withIt } = withLibraryAt(library);
    expect(withIt({})).toEqual({ LD_PRELOAD: library, MALLOC_CONF: JEMALLOC_CONF });
    expect(withIt({ LD_PRELOAD: '/lib/other.so' }).LD_PRELOAD).toBe(`${library}:/lib/other.so`);
    expect(withIt({ LD_PRELOAD: library }).LD_PRELOAD).toBe(library);
    expect(withIt({ MALLOC_CONF: 'narenas:2' }).MALLOC_CONF).toBe('narenas:2');
    fs.rmSync(path.dirname(library), { recursive: true });
  });

  // The library itself: Debian's libjemalloc2, as on the servers.
  (installed ? test : test.skip)('a node process started with it has jemalloc mapped', () => {
    const maps = execFileSync(process.execPath, ['-e', "process.stdout.write(require('fs').readFileSync('/proc/self/maps', 'utf8'))"], {
      env: withJemalloc({ PATH: process.env.PATH }),
    }).toString();
    expect(maps).toContain('libjemalloc.so.2');
  });

  test('without the library, nothing is preloaded', () => {
    expect(withLibraryAt('/nonexistent/libjemalloc.so.2').withJemalloc({ PATH: '/usr/bin' })).toEqual({ PATH: '/usr/bin' });
  });
});
