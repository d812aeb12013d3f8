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

type Cell = 'spotting' | 'detection' | 'recognition' | 'parsing' | 'classification';

const ANCIENT_CELLS: readonly Cell[] = ['spotting', 'detection', 'recognition', 'parsing', 'classification'];
const MODERN_CELLS: readonly Cell[] = ['parsing', 'classification'];
const MODERN_DISPLAY: readonly TaskId[] = ['parsing', 'classification'];

const mean = (v: readonly number[]) => {
  let s = 0;
  for (const x of v) s += x;
  return s / v.length;
};

export function aggregate(rows: readonly RowScore[]): Record<string, number> {
  // script name → cell → scores
  const lists = new Map<string, { script: ScriptInfo; cells: Map<Cell, number[]> }>();
  for (const r of rows) {
    let s = lists.get(r.script.name);
    if (!s) lists.set(r.script.name, (s = { script: r.script, cells: new Map() }));
    const push = (c: Cell, v: number) => {
      const l = s!.cells.get(c);
      if (l) l.push(v);
      else s!.cells.set(c, [v]);
    };
    if (r.task === 'spotting') {
      if (!r.inMean) continue;
      push('spotting', r.score);
      push('detection', r.detection ?? 0);
    } else push(r.task, r.score);
  }

  // Official order: the 7 scripts, then any other font_type by name.
  const known = SCRIPTS.map((s) => s.name).filter((n) => lists.has(n));
  const others = [...lists.keys()].filter((n) => !SCRIPTS.some((s) => s.name === n)).sort();
  const order = [...known, ...others].map((n) => lists.get(n)!);

  const m: Record<string, number> = {};
  const perScript = new Map<string, Map<Cell, number>>();
  for (const { script, cells } of order) {
    const allowed = script.group === 'ancient' ? ANCIENT_CELLS : MODERN_CELLS;
    const means = new Map<Cell, number>();
    for (const c of allowed) {
      const l = cells.get(c);
      if (!l || l.length === 0) continue;
      means.set(c, mean(l));
      m[`${script.key}/${c}`] = mean(l);
      m[`${script.key}/${c}/n`] = l.length;
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
