/**
 * The official summary (summarize.py): per-script means, the Ancient / Modern groups and the
 * "all scripts" row, each over the values that exist. Nothing is rounded here.
 */
import { DISPLAY_TASKS, SCRIPTS, type ScriptInfo, type TaskId } from './constants';

export interface RowScore {
  script: ScriptInfo;
  task: TaskId;
  score: number;
  /** Spotting rows: the Detection F1 beside the Spotting F1. */
  detection?: number;
  /** false for Spotting rows the judge could not score (they are left out, not counted as 0). */
  inMean: boolean;
}

export type Cell = 'spotting' | 'detection' | 'recognition' | 'parsing' | 'classification';

/** Every cell a script can have, the column order of `CellSums`. */
export const CELLS: readonly Cell[] = ['spotting', 'detection', 'recognition', 'parsing', 'classification'];
const ANCIENT_CELLS: readonly Cell[] = ['spotting', 'detection', 'recognition', 'parsing', 'classification'];
const MODERN_CELLS: readonly Cell[] = ['parsing', 'classification'];
const MODERN_DISPLAY: readonly TaskId[] = ['parsing', 'classification'];

/**
 * A script's per-row scores, summed per cell (CELLS order) in row order — the same additions
 * the plain mean makes — and counted; the uncertainty bootstrap re-weights these per image.
 */
export interface CellSums {
  script: ScriptInfo;
  sum: Float64Array;
  n: Float64Array;
}

export function newCellSums(script: ScriptInfo): CellSums {
  return { script, sum: new Float64Array(CELLS.length), n: new Float64Array(CELLS.length) };
}

/** Adds one row's score(s) to its script's cells; Spotting rows the judge did not score are left out. */
export function addRow(s: CellSums, r: RowScore): void {
  const push = (c: number, v: number) => {
    s.sum[c] += v;
    s.n[c] += 1;
  };
  if (r.task === 'spotting') {
    if (!r.inMean) return;
    push(0, r.score);
    push(1, r.detection ?? 0);
  } else push(CELLS.indexOf(r.task), r.score);
}

export function aggregate(rows: readonly RowScore[]): Record<string, number> {
  const byScript = new Map<string, CellSums>();
  for (const r of rows) {
    let s = byScript.get(r.script.name);
    if (!s) byScript.set(r.script.name, (s = newCellSums(r.script)));
    addRow(s, r);
  }
  return summarize([...byScript.values()]);
}

/** The official order of scripts: the 7 scripts, then any other font_type by name. */
export function summaryOrder(scripts: readonly ScriptInfo[]): ScriptInfo[] {
  const byName = new Map(scripts.map((s) => [s.name, s]));
  const known = SCRIPTS.map((s) => s.name).filter((n) => byName.has(n));
  const others = [...byName.keys()].filter((n) => !SCRIPTS.some((s) => s.name === n)).sort();
  return [...known, ...others].map((n) => byName.get(n)!);
}

/** summarize.py on per-script cell sums: every key of the official summary that exists. */
export function summarize(scripts: readonly CellSums[]): Record<string, number> {
  const order = summaryOrder(scripts.map((s) => s.script));
  const plan = new SummaryPlan(order);
  const bySlot = new Map(scripts.map((s) => [s.script.name, s]));
  const packed = new Float64Array(order.length * 2 * CELLS.length);
  order.forEach((script, i) => {
    const s = bySlot.get(script.name)!;
    packed.set(s.sum, i * 2 * CELLS.length);
    packed.set(s.n, i * 2 * CELLS.length + CELLS.length);
  });
  const values = new Float64Array(plan.keys.length);
  plan.fill(packed, values);
  const m: Record<string, number> = {};
  plan.keys.forEach((k, i) => {
    if (!Number.isNaN(values[i])) m[k] = values[i];
  });
  return m;
}

/**
 * The summary of a fixed list of scripts (in the official order) as a flat plan: `keys` lists
 * every key the summary can have, in the order the official summary writes them; `fill` computes
 * them from packed cell sums (per script: CELLS sums, then CELLS counts), NaN where a value does
 * not exist (a mean over no row). It allocates nothing, so the uncertainty bootstrap runs it per
 * replicate. Each mean adds its values in the official order and divides by their count, as
 * summarize.py's plain means do.
 */
export class SummaryPlan {
  readonly keys: string[] = [];
  private readonly means: Float64Array;

  constructor(private readonly scripts: readonly ScriptInfo[]) {
    this.means = new Float64Array(scripts.length * CELLS.length);
    for (const script of scripts) {
      for (const c of allowedCells(script)) this.keys.push(`${script.key}/${c}`, `${script.key}/${c}/n`);
      this.keys.push(`${script.key}/average`);
    }
    for (const t of DISPLAY_TASKS) this.keys.push(`ancient/${t}`);
    this.keys.push('ancient/average');
    for (const t of MODERN_DISPLAY) this.keys.push(`modern/${t}`);
    this.keys.push('modern/average');
    for (const t of DISPLAY_TASKS) this.keys.push(`all/${t}`);
    this.keys.push('all/average');
  }

  fill(packed: Float64Array, out: Float64Array): void {
    const C = CELLS.length;
    const means = this.means;
    let o = 0;
    this.scripts.forEach((script, si) => {
      means.fill(NaN, si * C, (si + 1) * C);
      for (const c of allowedCells(script)) {
        const i = CELLS.indexOf(c);
        const n = packed[si * 2 * C + C + i];
        if (n === 0) {
          out[o++] = NaN;
          out[o++] = NaN;
          continue;
        }
        const v = packed[si * 2 * C + i] / n;
        means[si * C + i] = v;
        out[o++] = v;
        out[o++] = n;
      }
      let s = 0;
      let k = 0;
      for (const t of DISPLAY_TASKS) {
        const x = means[si * C + CELLS.indexOf(t)];
        if (Number.isNaN(x)) continue;
        s += x;
        k++;
      }
      out[o++] = k ? s / k : NaN;
    });
    o = this.group(true, DISPLAY_TASKS, out, o);
    o = this.group(false, MODERN_DISPLAY, out, o);
    // The "all scripts" row: per task over the scripts, and the mean of every (script, task) cell.
    for (const t of DISPLAY_TASKS) {
      const i = CELLS.indexOf(t);
      let s = 0;
      let k = 0;
      for (let si = 0; si < this.scripts.length; si++) {
        const x = means[si * C + i];
        if (Number.isNaN(x)) continue;
        s += x;
        k++;
      }
      out[o++] = k ? s / k : NaN;
    }
    let s = 0;
    let k = 0;
    this.scripts.forEach((script, si) => {
      for (const c of allowedCells(script)) {
        const x = means[si * C + CELLS.indexOf(c)];
        if (c === 'detection' || Number.isNaN(x)) continue;
        s += x;
        k++;
      }
    });
    out[o] = k ? s / k : NaN;
  }

  /** Ancient or Modern: each task over the group's scripts, then the mean of those that exist. */
  private group(ancient: boolean, tasks: readonly TaskId[], out: Float64Array, o: number): number {
    const C = CELLS.length;
    let vs = 0;
    let vk = 0;
    for (const t of tasks) {
      const i = CELLS.indexOf(t);
      let s = 0;
      let k = 0;
      this.scripts.forEach((script, si) => {
        if ((script.group === 'ancient') !== ancient) return;
        const x = this.means[si * C + i];
        if (Number.isNaN(x)) return;
        s += x;
        k++;
      });
      const v = k ? s / k : NaN;
      out[o++] = v;
      if (k) {
        vs += v;
        vk++;
      }
    }
    out[o++] = vk ? vs / vk : NaN;
    return o;
  }
}

function allowedCells(script: ScriptInfo): readonly Cell[] {
  return script.group === 'ancient' ? ANCIENT_CELLS : MODERN_CELLS;
}
