/**
 * Reviews that could not be written yet (storage full, or any failed write): they stay on
 * screen and in memory, marked unsaved, are part of every export, and are retried — after 0.5,
 * 1, 2, 4 s, then every 5 s, and at once when the tab regains focus, comes back online or the
 * user presses "Retry" — until they are on disk. They never revert: what is shown is the
 * in-memory value until the write has committed.
 *
 * Order is kept: while any edit of a database waits, later edits of that database queue behind
 * it (applied in memory at once), so a retry writes them in the order they were made. A retry
 * skips the base-revision check (the edit was confirmed on screen before); it is applied to the
 * row as stored then, so another tab's changes to other fields are kept.
 */
import { announceLocal } from './changes';
import { editKeys, type ComputeRows, type EditOptions, type RowRef } from './history';
import type { BenchlensDB, ReviewRow } from './schema';
import { StorageError } from './storageErrors';

type Row = ReviewRow | null;

interface Pending {
  db: BenchlensDB;
  fingerprint: string;
  refs: RowRef[];
  make: (withBase: boolean) => ComputeRows;
  opts: EditOptions;
}

const queue: Pending[] = [];
/** Per database: row key → the value shown (null = deleted) while it is unsaved. */
const overlay = new Map<BenchlensDB, Map<string, Row>>();
const listeners = new Set<(count: number) => void>();
const DELAYS_MS = [500, 1000, 2000, 4000, 5000];
let attempt = 0;
let timer: ReturnType<typeof setTimeout> | null = null;
let flushing: Promise<void> | null = null;
/** Settles when the latest edit has been written or kept in memory. */
let turn: Promise<void> = Promise.resolve();

const k = (key: RowRef['key']) => (Array.isArray(key) ? key.join('\u0000') : key);

function overlayOf(db: BenchlensDB): Map<string, Row> {
  let m = overlay.get(db);
  if (!m) overlay.set(db, (m = new Map()));
  return m;
}

function notify(db: BenchlensDB, fingerprint: string, refs: RowRef[]): void {
  announceLocal({ fingerprint, table: 'reviews', keys: refs.map((r) => ({ subject: (r.key as string[])[1], case_id: (r.key as string[])[2] })) });
  const n = unsavedCount();
  for (const fn of [...listeners]) fn(n);
  void db;
}

/** Edits waiting to be written (all databases). */
export function unsavedCount(): number {
  return queue.length;
}

/** Is this review shown from memory (not yet on disk)? */
export function isUnsaved(db: BenchlensDB, fingerprint: string, subject: string, caseId: string): boolean {
  return overlay.get(db)?.has(k([fingerprint, subject, caseId])) ?? false;
}

/** Follow the number of unsaved edits; returns the unsubscribe function. */
export function onUnsavedChange(fn: (count: number) => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** The in-memory value of a review: undefined = nothing unsaved (read the store), null = deleted. */
export function liveRow(db: BenchlensDB, fingerprint: string, subject: string, caseId: string): Row | undefined {
  const m = overlay.get(db);
  const key = k([fingerprint, subject, caseId]);
  return m && m.has(key) ? m.get(key)! : undefined;
}

/** Stored rows of a dataset with the unsaved values put in their place. */
export function liveRows(db: BenchlensDB, fingerprint: string, stored: readonly ReviewRow[]): ReviewRow[] {
  const m = overlay.get(db);
  if (!m || m.size === 0) return [...stored];
  const out = new Map(stored.map((r) => [k([r.fingerprint, r.subject, r.case_id]), r as Row]));
  for (const [key, row] of m) if (key.startsWith(`${fingerprint}\u0000`)) out.set(key, row);
  return [...out.values()].filter((r): r is ReviewRow => r !== null);
}

async function shown(db: BenchlensDB, r: RowRef): Promise<Row> {
  const m = overlay.get(db);
  if (m?.has(k(r.key))) return m.get(k(r.key))!;
  return ((await db.subjectReviews.get(r.key as [string, string, string])) as ReviewRow | undefined) ?? null;
}

async function keepUnsaved(p: Pending): Promise<Row[]> {
  const before = await Promise.all(p.refs.map((r) => shown(p.db, r)));
  const after = p.make(true)(before) as Row[]; // a conflict throws here, as it would on disk
  const m = overlayOf(p.db);
  p.refs.forEach((r, i) => m.set(k(r.key), after[i]));
  const waiting = queue.length > 0;
  queue.push(p);
  notify(p.db, p.fingerprint, p.refs);
  // A new edit while others wait is a cheap moment to try again (space may be back); the first
  // failure waits for the backoff.
  if (waiting) void retryUnsaved();
  else schedule();
  return after;
}

/**
 * Runs a review edit (history.editKeys). When it cannot be written, or edits of this database
 * are already waiting, the edit is kept in memory and queued; the caller gets the row as shown.
 */
export function runReviewEdits(db: BenchlensDB, fingerprint: string, refs: RowRef[], make: (withBase: boolean) => ComputeRows, opts: EditOptions): Promise<Row[]> {
  // One edit at a time, in the order they were made: an edit that fails is applied in memory on
  // top of every earlier one (two failing at once must not each start from the stored row).
  const run = turn.then(async () => {
    const p: Pending = { db, fingerprint, refs, make, opts };
    if (queue.some((q) => q.db === db)) return keepUnsaved(p);
    try {
      return (await editKeys(db, fingerprint, refs, make(true), opts)) as Row[];
    } catch (e) {
      if (e instanceof StorageError) return keepUnsaved(p);
      throw e;
    }
  });
  turn = run.then(
    () => undefined,
    () => undefined,
  );
  return run;
}

function schedule(): void {
  if (timer || queue.length === 0) return;
  const delay = DELAYS_MS[Math.min(attempt, DELAYS_MS.length - 1)];
  attempt++;
  timer = setTimeout(() => {
    timer = null;
    void retryUnsaved();
  }, delay);
}

/** Tries to write every waiting edit now, in order; resolves when the attempt is over. */
export function retryUnsaved(): Promise<void> {
  if (timer) {
    clearTimeout(timer);
    timer = null;
  }
  flushing ??= (async () => {
    try {
      while (queue.length) {
        const p = queue[0];
        try {
          await editKeys(p.db, p.fingerprint, p.refs, p.make(false), p.opts);
        } catch (e) {
          if (e instanceof StorageError) {
            schedule();
            return;
          }
          // Not a storage failure (a bug): say so, and do not block the edits behind it forever.
          console.error('benchlens: an unsaved review could not be written', e);
        }
        queue.shift();
        // Once nothing of this database waits, what is stored is what was shown.
        if (!queue.some((q) => q.db === p.db)) overlay.delete(p.db);
        notify(p.db, p.fingerprint, p.refs);
      }
      attempt = 0;
    } finally {
      flushing = null;
    }
  })();
  return flushing;
}

if (typeof globalThis.addEventListener === 'function') {
  const now = () => queue.length && void retryUnsaved();
  globalThis.addEventListener('online', now);
  globalThis.addEventListener('focus', now);
  globalThis.addEventListener('visibilitychange', now);
}

/** Tests: forget everything waiting. */
export function resetUnsaved(): void {
  if (timer) clearTimeout(timer);
  timer = null;
  queue.length = 0;
  overlay.clear();
  attempt = 0;
}
