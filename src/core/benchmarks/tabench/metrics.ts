/**
 * TABench metric accumulation (tabench.md "Metrics" and "Decisions"): one accumulator per slice
 * (everything, category/…, source/…, level/…), turned into the report's keys at the end.
 */

export type T2rAverage = 'micro' | 'macro';

export class SliceStats {
  r2tN = 0;
  r2tCorrect = 0;
  r2tCerSum = 0;
  t2rN = 0;
  tp = 0;
  fp = 0;
  fn = 0;
  macroP = 0;
  macroR = 0;
  macroF1 = 0;
  qsr1 = 0;
  qsr3 = 0;
  qsr5 = 0;

  /** Back to zero (one query's contribution is recorded in a reused instance). */
  reset(): this {
    for (const k of SLICE_COLUMNS) this[k] = 0;
    return this;
  }

  addR2t(correct: boolean, cer: number): void {
    this.r2tN += 1;
    if (correct) this.r2tCorrect += 1;
    this.r2tCerSum += cer;
  }

  addT2r(q: T2rQueryResult): void {
    this.t2rN += 1;
    this.tp += q.tp;
    this.fp += q.fp;
    this.fn += q.fn;
    this.macroP += q.precision;
    this.macroR += q.recall;
    this.macroF1 += q.f1;
    if (q.qsr[0]) this.qsr1 += 1;
    if (q.qsr[1]) this.qsr3 += 1;
    if (q.qsr[2]) this.qsr5 += 1;
  }

  /** The 14 keys of a slice, in the order the reference files list them. */
  metrics(average: T2rAverage): [string, number][] {
    const r = new Float64Array(SLICE_RATE_KEYS.length);
    sliceRates(this, average, r);
    return [
      ['r2t/n', this.r2tN],
      ['r2t/accuracy', r[0]],
      ['r2t/cer', r[1]],
      ['t2r/n', this.t2rN],
      ['t2r/tp', this.tp],
      ['t2r/fp', this.fp],
      ['t2r/fn', this.fn],
      ['t2r/precision', r[2]],
      ['t2r/recall', r[3]],
      ['t2r/f1', r[4]],
      ['t2r/qsr@1', r[5]],
      ['t2r/qsr@3', r[6]],
      ['t2r/qsr@5', r[7]],
      ['overall', r[8]],
    ];
  }

  /** The query's contribution as a row of SLICE_COLUMNS (for the uncertainty bootstrap). */
  static row(out: Float64Array, at: number, s: SliceStats): void {
    SLICE_COLUMNS.forEach((k, i) => (out[at + i] = s[k]));
  }
}

/** The sums a slice keeps, in the column order of TABench's per-query `unitStats`. */
export const SLICE_COLUMNS = ['r2tN', 'r2tCorrect', 'r2tCerSum', 't2rN', 'tp', 'fp', 'fn', 'macroP', 'macroR', 'macroF1', 'qsr1', 'qsr3', 'qsr5'] as const;
export type SliceSums = Record<(typeof SLICE_COLUMNS)[number], number>;

/** The rates of a slice, in this order (keys after the slice prefix). */
export const SLICE_RATE_KEYS = ['r2t/accuracy', 'r2t/cer', 't2r/precision', 't2r/recall', 't2r/f1', 't2r/qsr@1', 't2r/qsr@3', 't2r/qsr@5', 'overall'] as const;

/** The official rates from a slice's sums into `out` (SLICE_RATE_KEYS order); allocates nothing. */
export function sliceRates(s: SliceSums, average: T2rAverage, out: Float64Array, at = 0): void {
  const rate = (n: number, d: number) => (d > 0 ? n / d : 0);
  const accuracy = rate(s.r2tCorrect, s.r2tN);
  let precision: number;
  let recall: number;
  let f1: number;
  if (average === 'macro') {
    precision = rate(s.macroP, s.t2rN);
    recall = rate(s.macroR, s.t2rN);
    f1 = rate(s.macroF1, s.t2rN);
  } else {
    precision = rate(s.tp, s.tp + s.fp);
    recall = rate(s.tp, s.tp + s.fn);
    f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  }
  out[at] = accuracy;
  out[at + 1] = rate(s.r2tCerSum, s.r2tN);
  out[at + 2] = precision;
  out[at + 3] = recall;
  out[at + 4] = f1;
  out[at + 5] = rate(s.qsr1, s.t2rN);
  out[at + 6] = rate(s.qsr3, s.t2rN);
  out[at + 7] = rate(s.qsr5, s.t2rN);
  // A side with no query counts as 0 in Overall, as the card says.
  out[at + 8] = (accuracy + f1) / 2;
}

export interface T2rQueryResult {
  tp: number;
  fp: number;
  fn: number;
  /** Per-query P, R, F1 (0 when undefined; 1, 1, 1 for a query with no GT and no prediction). */
  precision: number;
  recall: number;
  f1: number;
  /** QSR success at K = 1, 3, 5. */
  qsr: [boolean, boolean, boolean];
}

export function perQueryPRF(tp: number, nGt: number, nPred: number): { precision: number; recall: number; f1: number } {
  if (nGt === 0 && nPred === 0) return { precision: 1, recall: 1, f1: 1 };
  const precision = nPred > 0 ? tp / nPred : 0;
  const recall = nGt > 0 ? tp / nGt : 0;
  const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision, recall, f1 };
}

/** The report's flat metric map: overall keys, then category/, source/, level/ slices (sorted). */
export class SlicedMetrics {
  readonly all = new SliceStats();
  private readonly slices = new Map<string, SliceStats>();

  /** The accumulators a query adds to (its category / source / level slices when it has them). */
  targets(category?: string, source?: string, level?: string): SliceStats[] {
    const out = [this.all];
    if (category !== undefined) out.push(this.slice(`category/${category}/`));
    if (source !== undefined) out.push(this.slice(`source/${source}/`));
    if (level !== undefined) out.push(this.slice(`level/${level}/`));
    return out;
  }

  private slice(prefix: string): SliceStats {
    let s = this.slices.get(prefix);
    if (!s) this.slices.set(prefix, (s = new SliceStats()));
    return s;
  }

  metrics(average: T2rAverage): Record<string, number> {
    const out: Record<string, number> = {};
    for (const [k, v] of this.all.metrics(average)) out[k] = v;
    const order = ['category/', 'source/', 'level/'];
    const prefixes = [...this.slices.keys()].sort((a, b) => {
      const ga = order.findIndex((o) => a.startsWith(o));
      const gb = order.findIndex((o) => b.startsWith(o));
      return ga !== gb ? ga - gb : a < b ? -1 : a > b ? 1 : 0;
    });
    for (const p of prefixes) for (const [k, v] of this.slices.get(p)!.metrics(average)) out[p + k] = v;
    return out;
  }
}
