/**
 * Builds the CaseTable columns (src/core/caseTable.ts) from scored results, so the page gets the
 * whole case list as a few typed arrays it can filter and sort without asking the worker again.
 */
import type { CaseRecord, CaseTable, FacetColumn, ModelColumns, ModelResult, OutcomeCode } from '../core';
import { ERROR_CLASSES, ERROR_SLOTS, errorClassKind, OUTCOME_CODES } from '../core';

// Slot (ERROR_SLOTS order) → bit of its class name in ModelColumns.errorClasses.
const SLOT_BIT = ERROR_SLOTS.map((s) => 1 << ERROR_CLASSES.indexOf(s.cls));

/** The 32nd error kind collects every kind past the first 31, so the mask stays 32 bits. */
const MAX_ERROR_KINDS = 32;
const OTHER_ERRORS = 'other errors';

export function buildCaseTable(results: readonly ModelResult[]): CaseTable {
  // Case order: the first model's order, then cases only later models have.
  const rowOf = new Map<string, number>();
  const first: CaseRecord[] = [];
  for (const r of results) {
    for (const c of r.cases) {
      if (!rowOf.has(c.case_id)) {
        rowOf.set(c.case_id, first.length);
        first.push(c);
      }
    }
  }
  const n = first.length;
  const search: string[][] = first.map((c) => c.gt.map((g) => g.text ?? '').filter((t) => t !== ''));
  const perModel: Record<string, ModelColumns> = {};
  const i0 = (c: CaseRecord) => rowOf.get(c.case_id)!;
  for (const r of results) {
    const cols = emptyColumns(n);
    const kinds = new Map<string, number>();
    const counted = r.caseCounts;
    const classCounts = r.diagnostics?.case_counts;
    const nSlots = ERROR_SLOTS.length;
    if (classCounts) {
      cols.errorClasses = new Uint16Array(n);
      cols.errorCounts = new Uint16Array(n * nSlots);
    }
    r.cases.forEach((c, ci) => {
      if (classCounts) {
        let bits = 0;
        for (let s = 0; s < nSlots; s++) {
          const k = classCounts[ci * nSlots + s];
          cols.errorCounts![i0(c) * nSlots + s] = k;
          if (k > 0) bits |= SLOT_BIT[s];
        }
        cols.errorClasses![i0(c)] = bits;
      }
      const i = rowOf.get(c.case_id)!;
      cols.score[i] = c.score ?? NaN;
      cols.outcome[i] = outcomeCode(c.outcome);
      if (counted) {
        // Prediction instances are built on demand for this result: walking them would build them all.
        cols.misses[i] = counted.misses[ci];
        cols.falsePositives[i] = counted.falsePositives[ci];
      } else {
        let misses = 0;
        let fps = 0;
        for (const g of c.gt) if (g.state === 'fn') misses++;
        for (const p of c.pred) {
          if (p.state === 'fp') fps++;
          if (p.text) search[i].push(p.text);
        }
        cols.misses[i] = misses;
        cols.falsePositives[i] = fps;
      }
      let mask = 0;
      for (const e of errorKindsOf(c, ci, r)) {
        let bit = kinds.get(e);
        if (bit === undefined) {
          if (kinds.size < MAX_ERROR_KINDS - 1) bit = kinds.size;
          else bit = MAX_ERROR_KINDS - 1;
          if (bit < MAX_ERROR_KINDS - 1) kinds.set(e, bit);
        }
        mask |= 1 << bit;
      }
      cols.errorMask[i] = mask >>> 0;
    });
    cols.errorKinds = [...kinds.keys()];
    if (cols.errorMask.some((m) => (m & (1 << (MAX_ERROR_KINDS - 1))) !== 0)) cols.errorKinds[MAX_ERROR_KINDS - 1] = OTHER_ERRORS;
    perModel[r.model] = cols;
  }
  return {
    caseIds: first.map((c) => c.case_id),
    imagePaths: first.map((c) => c.image_path),
    imageFiles: first.map((c) => (c.image_file === undefined ? c.image_path : c.image_file)),
    facets: facetColumns(first),
    models: results.map((r) => r.model),
    perModel,
    searchText: search.map((s) => s.join('\n').toLowerCase()),
  };
}

/**
 * A case's error kinds: its errors, then the error classes of its FNs and FPs
 * (shared/specs/errors.md) as "FN split" / "FP background" — the case list's error-class facet.
 * From the result's per-case class counts when the adapter has them (no instance is walked, so
 * predictions built on demand stay unbuilt), else from the instances' `error`.
 */
function errorKindsOf(c: CaseRecord, ci: number, r: ModelResult): Iterable<string> {
  const kinds = new Set(c.errors);
  const counts = r.diagnostics?.case_counts;
  if (counts) {
    const base = ci * ERROR_SLOTS.length;
    ERROR_SLOTS.forEach((s, k) => {
      if (counts[base + k] > 0) kinds.add(errorClassKind(s.side, s.cls));
    });
    return kinds;
  }
  for (const g of c.gt) if (g.state === 'fn' && g.error) kinds.add(errorClassKind('fn', g.error));
  if (!r.caseCounts) for (const p of c.pred) if (p.state === 'fp' && p.error) kinds.add(errorClassKind('fp', p.error));
  return kinds;
}

function emptyColumns(n: number): ModelColumns {
  return {
    score: new Float64Array(n).fill(NaN),
    outcome: new Uint8Array(n).fill(4 satisfies OutcomeCode),
    misses: new Uint32Array(n),
    falsePositives: new Uint32Array(n),
    errorKinds: [],
    errorMask: new Uint32Array(n),
  };
}

function outcomeCode(o: CaseRecord['outcome']): OutcomeCode {
  const i = (OUTCOME_CODES as readonly string[]).indexOf(o);
  return (i < 0 ? 4 : i) as OutcomeCode;
}

function facetColumns(cases: readonly CaseRecord[]): FacetColumn[] {
  const keys: string[] = [];
  const seen = new Set<string>();
  for (const c of cases) {
    for (const k of Object.keys(c.facets)) {
      if (!seen.has(k)) {
        seen.add(k);
        keys.push(k);
      }
    }
  }
  return keys.map((key) => {
    const perCase = cases.map((c) => facetStrings(c.facets[key]));
    const values = [...new Set(perCase.flat())].sort();
    const code = new Map(values.map((v, i) => [v, i]));
    const offsets = new Uint32Array(cases.length + 1);
    let total = 0;
    perCase.forEach((vs, i) => {
      offsets[i] = total;
      total += vs.length;
    });
    offsets[cases.length] = total;
    const codes = new Uint32Array(total);
    let k = 0;
    for (const vs of perCase) for (const v of vs) codes[k++] = code.get(v)!;
    return { key, values, offsets, codes };
  });
}

function facetStrings(v: CaseRecord['facets'][string] | undefined): string[] {
  if (v === undefined || v === null) return [];
  if (Array.isArray(v)) return [...new Set(v.map(String))];
  return [String(v)];
}

/** Every buffer in the table, for Comlink.transfer (the page gets them without a copy). */
export function caseTableTransferables(t: CaseTable): ArrayBuffer[] {
  const out: ArrayBuffer[] = [];
  for (const f of t.facets) out.push(f.offsets.buffer as ArrayBuffer, f.codes.buffer as ArrayBuffer);
  for (const m of Object.values(t.perModel)) {
    out.push(m.score.buffer as ArrayBuffer, m.outcome.buffer as ArrayBuffer, m.misses.buffer as ArrayBuffer);
    out.push(m.falsePositives.buffer as ArrayBuffer, m.errorMask.buffer as ArrayBuffer);
    if (m.errorClasses) out.push(m.errorClasses.buffer as ArrayBuffer);
    if (m.errorCounts) out.push(m.errorCounts.buffer as ArrayBuffer);
  }
  return out;
}
