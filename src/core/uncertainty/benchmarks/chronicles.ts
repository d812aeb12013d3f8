/**
 * Chronicles-OCR: a unit is an image with all of its tasks; groups are `all`, each script,
 * `ancient`, `modern`. An image's row (recorded by chronicles/score.ts) is its script's cell sums
 * and counts; a replicate re-runs the official summary (chronicles/aggregate.summarize: per-script
 * means, their averages, the group and "all scripts" rows) on the weighted sums. A mean over no
 * row is left out by the official summary, so such a replicate has no value for it (NaN).
 */
import type { ModelResult } from '../../model';
import type { ChroniclesDataset } from '../../benchmarks/chronicles/gt';
import { CELLS, SummaryPlan, summaryOrder } from '../../benchmarks/chronicles/aggregate';
import { DISPLAY_TASKS, type ScriptInfo } from '../../benchmarks/chronicles/constants';
import type { GroupTable } from '../table';
import { permuteRows, sortedUnits } from './common';
import { InputError } from '../../model';

const C = CELLS.length;
const ROW = 2 * C;

export function chroniclesTables(ds: ChroniclesDataset, results: readonly ModelResult[]): GroupTable[] {
  // Scripts in the summary's order: the 7 known ones, then any other font_type by name.
  const present = new Map<string, ScriptInfo>();
  for (const r of ds.rows) present.set(r.script.name, r.script);
  const scripts = summaryOrder([...present.values()]);
  for (const r of results) {
    const t = r.unitStats?.images;
    if (!t || t.width !== ROW || t.rows.length !== ds.rows.length * ROW) throw new InputError(`uncertainty: ${r.model} carries no per-image statistics`);
  }

  const groups: { id: string; scripts: ScriptInfo[] }[] = [{ id: 'all', scripts }];
  for (const s of scripts) groups.push({ id: s.key, scripts: [s] });
  groups.push({ id: 'ancient', scripts: scripts.filter((s) => s.group === 'ancient') });
  groups.push({ id: 'modern', scripts: scripts.filter((s) => s.group === 'modern') });

  return groups.map(({ id, scripts: own }) => {
    // Only the group's scripts get columns: its keys depend on nothing else.
    const slot = new Map(own.map((s, i) => [s.name, i]));
    const W = own.length * ROW;
    const rows = rowsWhere(ds, (x) => slot.has(x.name));
    const { units, order } = sortedUnits(rows.map((i) => ds.rows[i].image_path));
    const ordered = Int32Array.from(order, (o) => rows[o]);
    // A model's rows spread into the group layout: each script's 10 columns at its slot.
    const stats = results.map((r) => {
      const own = permuteRows(r.unitStats!.images.rows, ROW, ordered);
      const out = new Float64Array(units.length * W);
      for (let i = 0; i < units.length; i++) out.set(own.subarray(i * ROW, (i + 1) * ROW), i * W + slot.get(ds.rows[ordered[i]].script.name)! * ROW);
      return out;
    });
    const keys = keysOf(id, results);
    const pairKeys = pairKeysOf(id, keys, scripts);
    // The official summary of the group's scripts, as a plan that allocates nothing per call.
    const plan = new SummaryPlan(own);
    const values = new Float64Array(plan.keys.length);
    const at = Int32Array.from(keys, (k) => plan.keys.indexOf(k));
    return {
      id,
      units,
      width: W,
      stats,
      keys,
      pairKeys,
      evaluate(sums: Float64Array, out: Float64Array) {
        plan.fill(sums, values);
        for (let k = 0; k < at.length; k++) out[k] = at[k] < 0 ? NaN : values[at[k]];
      },
    } satisfies GroupTable;
  });
}

function rowsWhere(ds: ChroniclesDataset, keep: (s: ScriptInfo) => boolean): number[] {
  const out: number[] = [];
  ds.rows.forEach((r, i) => {
    if (keep(r.script)) out.push(i);
  });
  return out;
}

/** The group's means in `metrics` (any model), in the summary's key order; not the `/n` counts. */
function keysOf(id: string, results: readonly ModelResult[]): string[] {
  const keys: string[] = [];
  const seen = new Set<string>();
  for (const r of results) {
    for (const k of Object.keys(r.metrics)) {
      if (!k.startsWith(`${id}/`) || k.endsWith('/n') || seen.has(k)) continue;
      seen.add(k);
      keys.push(k);
    }
  }
  return keys;
}

/** `<script>/average` and `<script>/<task>`; `ancient|modern|all/average`. Holm family: the part after the group. */
function pairKeysOf(id: string, keys: readonly string[], scripts: readonly ScriptInfo[]): { index: number; family: string }[] {
  const wanted = scripts.some((s) => s.key === id) ? ['average', ...DISPLAY_TASKS] : ['average'];
  const out: { index: number; family: string }[] = [];
  for (const w of wanted) {
    const index = keys.indexOf(`${id}/${w}`);
    if (index >= 0) out.push({ index, family: w });
  }
  return out;
}
