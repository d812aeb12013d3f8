/**
 * Storage failures are shown, never swallowed: every write in src/db goes through `guardWrite`,
 * which tells the listeners (the page shows a banner) and then rethrows so the caller knows the
 * edit was not saved. A full disk is the common case: browsers raise QuotaExceededError, and
 * IndexedDB often reports it as an AbortError whose inner error is the quota one (Dexie wraps it
 * as `Dexie.QuotaExceededError` / `AbortError` with `.inner`).
 */
export type StorageErrorKind = 'quota' | 'other';

export class StorageError extends Error {
  constructor(
    readonly kind: StorageErrorKind,
    message: string,
    readonly original: unknown,
  ) {
    super(message);
    this.name = 'StorageError';
  }
}

type Listener = (e: StorageError) => void;
const listeners = new Set<Listener>();

/** Subscribe to storage failures; returns the unsubscribe function. */
export function onStorageError(fn: Listener): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** True when `e`, or an error it wraps (`inner`, `cause`, `failures`), is a quota error. */
export function isQuotaError(e: unknown, depth = 0): boolean {
  if (!e || typeof e !== 'object' || depth > 5) return false;
  const o = e as { name?: unknown; inner?: unknown; cause?: unknown; failures?: unknown; code?: unknown };
  if (o.name === 'QuotaExceededError' || o.code === 22) return true;
  if (isQuotaError(o.inner, depth + 1) || isQuotaError(o.cause, depth + 1)) return true;
  if (Array.isArray(o.failures)) return o.failures.some((f) => isQuotaError(f, depth + 1));
  return false;
}

export function toStorageError(e: unknown, what: string): StorageError {
  if (e instanceof StorageError) return e;
  if (isQuotaError(e)) {
    return new StorageError('quota', `Browser storage is full: ${what} was not saved. Free some disk space or export your reviews, then try again.`, e);
  }
  const msg = e instanceof Error ? e.message : String(e);
  return new StorageError('other', `Could not save ${what}: ${msg}`, e);
}

/** Runs a write; on failure notifies the listeners and rethrows a StorageError. */
export async function guardWrite<T>(what: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (e) {
    const err = toStorageError(e, what);
    for (const fn of [...listeners]) fn(err);
    throw err;
  }
}
