/**
 * The one IndexedDB database of Benchlens (`benchlens`), declared with Dexie.
 *
 * What lives here, and why it is keyed the way it is:
 * - `subjectReviews` (version 2): one row per (dataset fingerprint, subject, case_id). The subject
 *   says what the review is about (src/db/subjects.ts):
 *     'gt'              the dataset's ground truth: GT wrong / GT missing, GT instance reviews,
 *                       a GT note. Shown for every model, whichever are loaded.
 *     'pred:<content>'  one prediction set, by the fingerprint of its file's bytes (computed as the
 *                       worker reads the file): renaming the model or re-adding the same file
 *                       under another name finds the same reviews.
 *     'name:<model>'    a version-1 review whose file content was never seen: kept under the model
 *                       name it was made under until a model of that name is loaded, then moved to
 *                       that file's content key (claimLegacyReviews).
 *   `rev` is a write token (new on every committed write): an edit carries the rev it was based
 *   on, and the transaction refuses it when another tab changed that field since (a conflict).
 *   The dataset key is DatasetInfo.fingerprint, never a folder path.
 * - `reviews` (version 1, removed by version 2): one row per (fingerprint, model name, case_id).
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
 * - version(1): reviews keyed by model *name*. Nothing to migrate from.
 * - version(2): `subjectReviews` replaces `reviews` (a primary key cannot change in place). The
 *   upgrade splits every v1 row into its GT part (GT status with its note and tags, GT-side
 *   instance reviews) under 'gt' and its prediction part under 'name:<model>'; two models' GT
 *   parts of one case are merged (newest status, notes joined, tags and instances united), so no
 *   review is lost. v1 undo entries of reviews are dropped (their rows no longer fit); undo of GT
 *   corrections is kept. See upgradeV1Reviews (src/db/migrateV1.ts) and migration.test.ts.
 * Adding a field that is not indexed needs no new version. Adding or changing an index, or a
 * table, does: declare `this.version(2).stores({...all tables...}).upgrade(...)` below version(1)
 * and keep version(1) as it is. A browser holding version(1) data then upgrades in place on the
 * next open; src/db/migration.test.ts opens a version(1) database with a later declaration to
 * check the data survives.
 */
import Dexie, { type DexieOptions, type EntityTable } from 'dexie';
import type { BenchmarkId, GtCorrection } from '../core/model';
import type { InstanceReview, ReviewStatus } from '../core/qa';
import { upgradeV1Reviews } from './migrateV1';

export const DB_NAME = 'benchlens';

/** A version-1 review row (table `reviews`), read only by the version-2 upgrade. */
export interface ReviewRowV1 {
  fingerprint: string;
  model: string;
  case_id: string;
  status: ReviewStatus;
  note?: string;
  tags?: string[];
  instances?: InstanceReview[];
  updated_at: string;
  author?: string;
}

/** A review as stored: what one subject (GT, or one prediction set) says about one case. */
export interface ReviewRow {
  fingerprint: string;
  /** 'gt' | 'pred:<content fingerprint>' | 'name:<model>' — see src/db/subjects.ts. */
  subject: string;
  case_id: string;
  status: ReviewStatus;
  note?: string;
  tags?: string[];
  instances?: InstanceReview[];
  /** ISO 8601 time of the last confirmed edit. */
  updated_at: string;
  author?: string;
  /** The model name the review was last edited under (shown, exported; never part of the key). */
  model?: string;
  /** Write token, new on every committed write (the base-revision check of two tabs). */
  rev?: string;
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
  /** The row's primary key: [fingerprint, subject, case_id] for reviews, the id for corrections. */
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
  /** Version-1 table, gone after the upgrade; declared so the upgrade can read it. */
  reviews!: Dexie.Table<ReviewRowV1, [string, string, string]>;
  subjectReviews!: Dexie.Table<ReviewRow, [string, string, string]>;
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
    // version(2) — reviews keyed by what they are about (see the migration story above).
    this.version(2)
      .stores({
        reviews: null,
        subjectReviews: '[fingerprint+subject+case_id], fingerprint, [fingerprint+case_id], updated_at',
        corrections: 'id, fingerprint, [fingerprint+case_id]',
        history: '++seq, [fingerprint+undone+seq]',
        recentFolders: '++id, lastOpened',
        meta: 'key',
      })
      .upgrade((tx) => upgradeV1Reviews(tx));
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
