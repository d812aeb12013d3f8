/**
 * The one IndexedDB database of Benchlens (`benchlens`), declared with Dexie.
 *
 * What lives here, and why it is keyed the way it is:
 * - `reviews`: one row per (dataset fingerprint, model, case_id) holding the case's QaState,
 *   instance-level reviews included (`instances`, each pointing at side gt|pred + id). The key is
 *   the dataset *fingerprint* (DatasetInfo.fingerprint), never a folder path, so the same
 *   benchmark opened from another copy finds its reviews again.
 * - `corrections`: GT corrections (GtCorrection) stored beside the original GT, one row each,
 *   keyed by a stable string id; the GT files themselves are never written.
 * - `history`: the undo/redo log. Every confirmed edit (review or correction) writes its
 *   before/after row here in the same transaction as the edit, so undo survives a reload.
 * - `recentFolders`: Chromium FileSystemDirectoryHandle objects (structured-cloneable, so
 *   IndexedDB can hold them) with a label, the benchmark and when the folder was last opened.
 * - `meta`: small key/value facts (e.g. the author name put on reviews).
 *
 * Migration story (Dexie's rule: never edit or delete an old `version()` declaration; add a new
 * one with the full new schema and, when rows must change shape, an `.upgrade(tx => …)`):
 * - version(1): the tables above. Nothing to migrate from.
 * Adding a field that is not indexed needs no new version. Adding or changing an index, or a
 * table, does: declare `this.version(2).stores({...all tables...}).upgrade(...)` below version(1)
 * and keep version(1) as it is. A browser holding version(1) data then upgrades in place on the
 * next open; src/db/migration.test.ts opens a version(1) database with a later declaration to
 * check the data survives.
 */
import Dexie, { type DexieOptions, type EntityTable } from 'dexie';
import type { BenchmarkId, GtCorrection } from '../core/model';
import type { InstanceReview, ReviewStatus } from '../core/qa';

export const DB_NAME = 'benchlens';

/** A case review as stored: the QaState (minus corrections, which have their own table) + key. */
export interface ReviewRow {
  fingerprint: string;
  model: string;
  case_id: string;
  status: ReviewStatus;
  note?: string;
  tags?: string[];
  instances?: InstanceReview[];
  /** ISO 8601 time of the last confirmed edit. */
  updated_at: string;
  author?: string;
}

/** A GT correction as stored: beside the original GT, one row per corrected / added instance. */
export interface CorrectionRow {
  /** Stable id (random UUID) so undo, export and import can find the same correction again. */
  id: string;
  fingerprint: string;
  case_id: string;
  correction: GtCorrection;
  updated_at: string;
}

export type HistoryTable = 'reviews' | 'corrections';

/** One undoable edit. `before`/`after` are whole rows (null = the row did not exist). */
export interface HistoryRow {
  seq?: number;
  fingerprint: string;
  table: HistoryTable;
  /** The row's primary key: [fingerprint, model, case_id] for reviews, the id for corrections. */
  key: [string, string, string] | string;
  before: ReviewRow | CorrectionRow | null;
  after: ReviewRow | CorrectionRow | null;
  /** 0 = done (undoable), 1 = undone (redoable). A number, because booleans cannot be indexed. */
  undone: 0 | 1;
  at: string;
  label: string;
  /** Entries written by one action (an import, a conflict resolution) share a group: undone together. */
  group?: string;
  /** Successive edits of one field (a note being typed) with the same tag fold into one entry. */
  coalesce?: string;
}

export interface RecentFolderRow {
  id?: number;
  /** Chromium's FileSystemDirectoryHandle, or null where the folder came from drag-and-drop / input. */
  handle: FileSystemDirectoryHandle | null;
  label: string;
  benchmark: BenchmarkId | string;
  /** Date.now() of the last open. */
  lastOpened: number;
}

export interface MetaRow {
  key: string;
  value: unknown;
}

export class BenchlensDB extends Dexie {
  reviews!: Dexie.Table<ReviewRow, [string, string, string]>;
  corrections!: EntityTable<CorrectionRow, 'id'>;
  history!: EntityTable<HistoryRow, 'seq'>;
  recentFolders!: EntityTable<RecentFolderRow, 'id'>;
  meta!: EntityTable<MetaRow, 'key'>;

  constructor(name: string = DB_NAME, options?: DexieOptions) {
    // 'strict': a review is on disk (flushed) before the edit is confirmed, so even a power cut
    // after "saved" loses nothing. One small row per edit makes the extra flush cheap.
    super(name, { chromeTransactionDurability: 'strict', ...options });
    // version(1) — keep forever, unchanged (see the migration story above).
    this.version(1).stores({
      reviews: '[fingerprint+model+case_id], fingerprint, [fingerprint+status], [fingerprint+case_id], updated_at',
      corrections: 'id, fingerprint, [fingerprint+case_id]',
      history: '++seq, [fingerprint+undone+seq]',
      recentFolders: '++id, lastOpened',
      meta: 'key',
    });
  }
}

let shared: BenchlensDB | null = null;

/** The page's database, opened lazily on first use. */
export function getDb(): BenchlensDB {
  shared ??= new BenchlensDB();
  return shared;
}

/** Tests (and a "clear storage" action) replace or drop the shared instance. */
export function setDb(db: BenchlensDB | null): void {
  shared = db;
}
