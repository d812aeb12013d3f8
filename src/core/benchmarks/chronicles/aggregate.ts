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

const mean = (v: readonly number[]) => {
  let s = 0;
  for (const x of v) s += x;
  return s / v.length;
};

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

/** summarize.py on per-script cell sums: every key of the official summary that exists. */
export function summarize(scripts: readonly CellSums[]): Record<string, number> {
  const lists = new Map(scripts.map((s) => [s.script.name, s]));
  // Official order: the 7 scripts, then any other font_type by name.
  const known = SCRIPTS.map((s) => s.name).filter((n) => lists.has(n));
  const others = [...lists.keys()].filter((n) => !SCRIPTS.some((s) => s.name === n)).sort();
  const order = [...known, ...others].map((n) => lists.get(n)!);

  const m: Record<string, number> = {};
  const perScript = new Map<string, Map<Cell, number>>();
  for (const { script, sum, n } of order) {
    const allowed = script.group === 'ancient' ? ANCIENT_CELLS : MODERN_CELLS;
    const means = new Map<Cell, number>();
    for (const c of allowed) {
      const i = CELLS.indexOf(c);
      if (n[i] === 0) continue;
      const v = sum[i] / n[i];
      means.set(c, v);
      m[`${script.key}/${c}`] = v;
      m[`${script.key}/${c}/n`] = n[i];
    }
    const shown = DISPLAY_TASKS.filter((t) => means.has(t)).map((t) => means.get(t)!);
    if (shown.length) m[`${script.key}/average`] = mean(shown);
    perScript.set(script.name, means);
  }

  const group = (name: 'ancient' | 'modern', tasks: readonly TaskId[]) => {
    const vals: number[] = [];
    for (const t of tasks) {
      const v = order.filter((s) => (s.script.group === 'ancient') === (name === 'ancient')).flatMap((s) => {
        const x = perScript.get(s.script.name)!.get(t);
        return x === undefined ? [] : [x];
      });
      if (v.length === 0) continue;
      m[`${name}/${t}`] = mean(v);
      vals.push(mean(v));
    }
    if (vals.length) m[`${name}/average`] = mean(vals);
  };
  group('ancient', DISPLAY_TASKS);
  group('modern', MODERN_DISPLAY);

  const every: number[] = [];
  const byTask = new Map<TaskId, number[]>();
  for (const s of order) {
    const means = perScript.get(s.script.name)!;
    for (const [c, v] of means) {
      if (c === 'detection') continue;
      every.push(v);
      const l = byTask.get(c);
      if (l) l.push(v);
      else byTask.set(c, [v]);
    }
  }
  for (const t of DISPLAY_TASKS) {
    const l = byTask.get(t);
    if (l?.length) m[`all/${t}`] = mean(l);
  }
  if (every.length) m['all/average'] = mean(every);
  return m;
}
