import fs from 'node:fs';

// Node processes of the deployment run with jemalloc (Debian's libjemalloc2) preloaded instead
// of glibc's malloc. Photo uploads allocate and free many multi-megabyte buffers from several
// threads at once (the body, the decoded photo, sharp's pixels on libuv's threads): glibc keeps
// such memory in per-thread arenas and raises its mmap threshold after the first free, so the
// freed megabytes stay in the process's RSS, fragmented; jemalloc hands them back to the system.
// scripts/bench/uploads.ts measures the difference (docs/operations.md).

export const JEMALLOC_PATH = process.env.JEMALLOC_PATH ?? '/usr/lib/x86_64-linux-gnu/libjemalloc.so.2';

export const jemallocInstalled = (): boolean => fs.existsSync(JEMALLOC_PATH);

/**
 * Freed pages go back to the system at once (jemalloc's defaults keep them 10 s, and purge only
 * when the process next allocates): an upload's megabytes do not linger in RSS after it. What
 * it costs is an madvise per freed run of pages; scripts/bench/uploads.ts measured no fewer uploads or
 * listings answered (+185 to +229 MB peak over idle against +235 to +265 with a 1 s decay).
 */
export const JEMALLOC_CONF = 'background_thread:true,dirty_decay_ms:0,muzzy_decay_ms:0';

/**
 * The environment for a node process of the deployment: LD_PRELOAD gains jemalloc when it is
 * installed (apt-get install libjemalloc2) and MALLOC_CONF its settings (unless given), unless
 * MALLOC=system asks for glibc's. Without the library the process runs as before, on glibc.
 */
export function withJemalloc(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (env.MALLOC === 'system' || !jemallocInstalled()) return env;
  const preload = (env.LD_PRELOAD ?? '').split(/[:\s]+/).filter(Boolean);
  return {
    ...env,
    LD_PRELOAD: preload.includes(JEMALLOC_PATH) ? env.LD_PRELOAD : [JEMALLOC_PATH, ...preload].join(':'),
    MALLOC_CONF: env.MALLOC_CONF ?? JEMALLOC_CONF,
  };
}
