/**
 * Undo/redo for every confirmed edit (reviews and GT corrections), persisted in the `history`
 * table so it survives a reload. Each edit runs in ONE IndexedDB transaction that writes the row
 * and its history entry together: after a crash either both are there or neither is.
 *
 * The log is per dataset fingerprint. Entries with undone=0 form the undo stack (newest = highest
 * seq); entries with undone=1 form the redo stack (next to redo = lowest seq). A new edit drops
 * the redo stack, as every editor does.
 */
import Dexie from 'dexie';
import { announce, type ChangeNotice } from './changes';
import { guardWrite } from './storageErrors';
import { newRev } from './subjects';
import type { BenchlensDB, CorrectionRow, HistoryRow, HistoryTable, ReviewRow } from './schema';

type Row = ReviewRow | CorrectionRow;

/** A clock tests can replace; ISO 8601 in UTC. */
export let now = (): string => new Date().toISOString();
export function setClock(fn: () => string): void {
  now = fn;
}

/**
 * How far back undo reaches (entries per dataset, counted by sequence number): old entries are
 * dropped as new ones are written, so the log cannot grow without bound over months of review.
 */
let historyLimit = 5000;
export function setHistoryLimit(n: number): void {
  historyLimit = n;
}

/** Typing a note saves every 400 ms; those saves fold into one undo step within this window. */
const COALESCE_MS = 5000;

function rowKey(table: HistoryTable, row: Row): HistoryRow['key'] {
  if (table === 'reviews') {
    const r = row as ReviewRow;
    return [r.fingerprint, r.subject, r.case_id];
  }
  return (row as CorrectionRow).id;
}

function noticeFor(table: HistoryTable, fingerprint: string, rows: (Row | null)[]): ChangeNotice {
  const keys = rows
    .filter((r): r is Row => r !== null)
    .map((r) => (table === 'reviews' ? { subject: (r as ReviewRow).subject, case_id: r.case_id } : { case_id: r.case_id, id: (r as CorrectionRow).id }));
  const seen = new Set<string>();
  return { fingerprint, table, keys: keys.filter((k) => !seen.has(JSON.stringify(k)) && !!seen.add(JSON.stringify(k))) };
}

/** Content equality that ignores the edit time and write token (a no-op edit is not an edit). */
function sameContent(a: Row | null, b: Row | null): boolean {
  if (a === null || b === null) return a === b;
  const strip = (r: Row) => JSON.stringify({ ...r, updated_at: undefined, rev: undefined });
  return strip(a) === strip(b);
}

function doneRange(db: BenchlensDB, fp: string, undone: 0 | 1) {
  return db.history.where('[fingerprint+undone+seq]').between([fp, undone, Dexie.minKey], [fp, undone, Dexie.maxKey]);
}

function tableOf(db: BenchlensDB, t: HistoryTable) {
  return (t === 'reviews' ? db.subjectReviews : db.corrections) as unknown as Dexie.Table<Row, unknown>;
}

/** A review row written gets a new write token, so a base-revision check can tell it apart. */
function stamp<R extends Row | null>(table: HistoryTable, row: R): R {
  return row && table === 'reviews' ? ({ ...row, rev: newRev() } as R) : row;
}

export interface EditOptions {
  label: string;
  coalesce?: string;
  group?: string;
}

export interface RowRef {
  table: HistoryTable;
  key: HistoryRow['key'];
}

/** The new values of the rows from the stored ones (null = delete); may throw to refuse the edit (a conflict). */
export type ComputeRows = (before: (Row | null)[]) => (Row | null)[];

/**
 * Reads the row, computes its new value (null = delete) and writes row + history in one
 * transaction. Returns the new row (or the old one when nothing changed).
 */
export async function editRow<R extends Row>(
  db: BenchlensDB,
  table: HistoryTable,
  fingerprint: string,
  key: HistoryRow['key'],
  compute: (before: R | null) => R | null,
  opts: EditOptions,
): Promise<R | null> {
  const [out] = await editKeys(db, fingerprint, [{ table, key }], (b) => [compute(b[0] as R | null)], opts);
  return out as R | null;
}

/**
 * editRow for several rows in ONE transaction (a case status that moves from a model's review
 * to the GT review writes both): all are written or none, and they undo as one step.
 */
export async function editKeys(db: BenchlensDB, fingerprint: string, edits: readonly RowRef[], compute: ComputeRows, opts: EditOptions): Promise<(Row | null)[]> {
  const changedRows: { table: HistoryTable; rows: (Row | null)[] }[] = [];
  const group = edits.length > 1 ? `${opts.label}@${now()}#${Math.random().toString(36).slice(2)}` : opts.group;
  const result = await guardWrite(opts.label, () =>
    db.transaction('rw', db.subjectReviews, db.corrections, db.history, async () => {
      changedRows.length = 0;
      const befores: (Row | null)[] = [];
      for (const e of edits) befores.push(((await tableOf(db, e.table).get(e.key as never)) as Row | undefined) ?? null);
      // The new values are computed before anything is written: a refusal (a conflict) writes nothing.
      const afters = compute(befores);
      const out: (Row | null)[] = [];
      let dropped = false;
      for (let i = 0; i < edits.length; i++) {
        const { table, key } = edits[i];
        const before = befores[i];
        if (sameContent(before, afters[i])) {
          out.push(before);
          continue;
        }
        const after = stamp(table, afters[i]);
        const t = tableOf(db, table);
        if (after) await t.put(after);
        else await t.delete(key as never);
        changedRows.push({ table, rows: [before, after] });
        out.push(after);
        if (!dropped) {
          await doneRange(db, fingerprint, 1).delete();
          dropped = true;
        }
        const last = await doneRange(db, fingerprint, 0).last();
        const at = now();
        if (
          edits.length === 1 &&
          opts.coalesce &&
          last &&
          last.coalesce === opts.coalesce &&
          last.table === table &&
          JSON.stringify(last.key) === JSON.stringify(key) &&
          Date.parse(at) - Date.parse(last.at) < COALESCE_MS
        ) {
          await db.history.update(last.seq!, { after, at });
        } else {
          const entry: HistoryRow = { fingerprint, table, key, before, after, undone: 0, at, label: opts.label };
          if (opts.coalesce && edits.length === 1) entry.coalesce = opts.coalesce;
          if (group) entry.group = group;
          const seq = (await db.history.add(entry)) as number;
          if (seq > historyLimit) {
            await db.history.where('[fingerprint+undone+seq]').between([fingerprint, 0, Dexie.minKey], [fingerprint, 0, seq - historyLimit], true, true).delete();
          }
        }
      }
      return out;
    }),
  );
  for (const table of ['reviews', 'corrections'] as const) {
    const rows = changedRows.filter((c) => c.table === table).flatMap((c) => c.rows);
    if (rows.length) announce(noticeFor(table, fingerprint, rows));
  }
  return result;
}

/** Writes many rows as one undoable step (an import, a batch resolution). */
export async function editRows(
  db: BenchlensDB,
  fingerprint: string,
  edits: { table: HistoryTable; row: Row | null; key: HistoryRow['key'] }[],
  label: string,
): Promise<number> {
  if (edits.length === 0) return 0;
  const group = `${label}@${now()}#${Math.random().toString(36).slice(2)}`;
  let written = 0;
  await guardWrite(label, () =>
    db.transaction('rw', db.subjectReviews, db.corrections, db.history, async () => {
      written = 0;
      const at = now();
      await doneRange(db, fingerprint, 1).delete();
      for (const e of edits) {
        const t = tableOf(db, e.table);
        const before = ((await t.get(e.key as never)) as Row | undefined) ?? null;
        if (sameContent(before, e.row)) continue;
        const row = stamp(e.table, e.row);
        if (row) await t.put(row);
        else await t.delete(e.key as never);
        await db.history.add({ fingerprint, table: e.table, key: e.key, before, after: row, undone: 0, at, label, group });
        written++;
      }
    }),
  );
  if (written) {
    announce({ fingerprint, table: 'reviews' });
    announce({ fingerprint, table: 'corrections' });
  }
  return written;
}

async function step(db: BenchlensDB, fingerprint: string, direction: 'undo' | 'redo'): Promise<HistoryRow[]> {
  const applied: HistoryRow[] = [];
  await guardWrite(direction, () =>
    db.transaction('rw', db.subjectReviews, db.corrections, db.history, async () => {
      applied.length = 0;
      // A fresh Collection each time: Dexie's first()/last() set limit and direction in place.
      const range = () => doneRange(db, fingerprint, direction === 'undo' ? 0 : 1);
      const first = direction === 'undo' ? await range().last() : await range().first();
      if (!first) return;
      let entries = [first];
      if (first.group) {
        const all = await range().toArray(); // ascending seq
        entries = all.filter((e) => e.group === first.group);
      }
      if (direction === 'undo') entries.reverse(); // undo newest first
      for (const e of entries) {
        const t = tableOf(db, e.table);
        // A new write token: a row undone to an older value is still a new write to other tabs.
        const target = stamp(e.table, direction === 'undo' ? e.before : e.after);
        if (target) await t.put(target);
        else await t.delete(e.key as never);
        await db.history.update(e.seq!, { undone: direction === 'undo' ? 1 : 0 });
        applied.push(e);
      }
    }),
  );
  for (const table of ['reviews', 'corrections'] as const) {
    const rows = applied.filter((e) => e.table === table).flatMap((e) => [e.before, e.after]);
    if (rows.length) announce(noticeFor(table, fingerprint, rows));
  }
  return applied;
}

/** Undoes the latest edit (or edit group) of this dataset; returns what was undone ([] = nothing). */
export function undo(db: BenchlensDB, fingerprint: string): Promise<HistoryRow[]> {
  return step(db, fingerprint, 'undo');
}

export function redo(db: BenchlensDB, fingerprint: string): Promise<HistoryRow[]> {
  return step(db, fingerprint, 'redo');
}

export async function historyDepth(db: BenchlensDB, fingerprint: string): Promise<{ undo: number; redo: number }> {
  return { undo: await doneRange(db, fingerprint, 0).count(), redo: await doneRange(db, fingerprint, 1).count() };
}

export { rowKey };
