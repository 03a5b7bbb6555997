// A write the storage had no room for. The local directory throws it on ENOSPC (disk full) or
// EDQUOT (quota reached); an object store would throw it on its own "full" answers. The HTTP
// layer answers it as 507 Insufficient Storage (http/error-handler.ts), never as a 500.

const NO_ROOM_CODES = new Set(['ENOSPC', 'EDQUOT']);

export class StorageFullError extends Error {
  constructor(
    public readonly key: string,
    options?: { cause?: unknown },
  ) {
    super(`No room left in storage to write ${key}`);
    this.name = 'StorageFullError';
    if (options && 'cause' in options) this.cause = options.cause;
  }
}

/** True for StorageFullError and for a raw errno error of a write that found no room. */
export function isStorageFull(err: unknown): boolean {
  if (err instanceof StorageFullError) return true;
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' && NO_ROOM_CODES.has(code);
}
