/**
 * GT suspects (errors.md "GT suspects"): places the ground truth may be wrong, from the error
 * classes of every loaded model in the case unit. A ranked list to review; no number changes.
 *
 * - missing_gt: background FPs (score ≥ 0.5, or no score) of at least two models that overlap
 *   pairwise at IoU > 0.5 — grouped greedily, highest score first, one FP per model; with one
 *   model loaded, each of its background FPs with score ≥ 0.5 alone.
 * - wrong_gt: a care GT every model that has the case misses as `missed`.
 * Ranking: missing_gt by the number of models (more first), then mean score (higher first);
 * then wrong_gt in case order.
 */
import { boxIoU } from '../geometry/box';
import { makeRegion, regionIoU, type Region } from '../geometry/polygonRegion';
import {
  ERROR_SLOTS,
  FN_CLASSES,
  FP_CLASSES,
  type BackgroundFp,
  type CaseRecord,
  type ModelDiagnostics,
  type ModelResult,
  type Shape,
} from '../model';

/** A background FP at or above this score can point at a missing annotation. */
export const SUSPECT_SCORE = 0.5;
const OVERLAP = 0.5;

export interface Suspect {
  kind: 'missing_gt' | 'wrong_gt';
  case_id: string;
  /** wrong_gt: the GT instance id. */
  gt?: number;
  /** missing_gt: the FP's prediction id per model. */
  pred?: Record<string, number>;
  /** missing_gt: the FPs' mean score (absent when the benchmark has no scores). */
  score?: number;
}

const BACKGROUND_SLOT = FN_CLASSES.length + FP_CLASSES.indexOf('background');
const MISSED_SLOT = FN_CLASSES.indexOf('missed');

/** The suspects' inputs from cases that hold their instances (every benchmark but big LTB inputs, which collect them while building). */
export function collectSuspectInputs(
  cases: readonly CaseRecord[],
  counts: Uint16Array,
  /** Cases whose classes may point at the GT (default: all). */
  countsFor: (c: CaseRecord) => boolean = () => true,
): Pick<ModelDiagnostics, 'background' | 'missed'> {
  const background: BackgroundFp[] = [];
  const missed: number[] = [];
  const n = ERROR_SLOTS.length;
  cases.forEach((c, i) => {
    if (!countsFor(c)) return;
    if (counts[i * n + BACKGROUND_SLOT] > 0) {
      for (const p of c.pred) {
        if (p.error === 'background' && p.shape && !(p.score !== undefined && p.score < SUSPECT_SCORE)) {
          background.push({ case: i, pred: p.id, ...(p.score !== undefined ? { score: p.score } : {}), shape: p.shape });
        }
      }
    }
    if (counts[i * n + MISSED_SLOT] > 0) for (const g of c.gt) if (g.error === 'missed') missed.push(i, g.id);
  });
  return { background, missed: Uint32Array.from(missed) };
}

type Geo = { box: readonly number[] } | { region: Region };

function geoOf(s: Shape, mode: 'hull' | 'pieces'): Geo {
  return s.type === 'box' ? { box: s.box } : { region: makeRegion(s.points, mode) };
}

function iouOf(a: Geo, b: Geo): number {
  if ('box' in a && 'box' in b) return boxIoU(a.box, b.box);
  const ra = 'region' in a ? a.region : makeRegion(boxRing(a.box), 'pieces');
  const rb = 'region' in b ? b.region : makeRegion(boxRing(b.box), 'pieces');
  return regionIoU(ra, rb);
}

function boxRing(b: readonly number[]): number[] {
  return [b[0], b[1], b[2], b[1], b[2], b[3], b[0], b[3]];
}

interface Fp {
  model: string;
  fp: BackgroundFp;
  geo?: Geo;
  used: boolean;
}

export function computeSuspects(results: readonly Pick<ModelResult, 'model' | 'cases' | 'diagnostics'>[]): Suspect[] {
  const withDiag = results.filter((r) => r.diagnostics);
  if (withDiag.length === 0) return [];
  const caseId = (r: (typeof withDiag)[number], i: number) => r.cases[i]?.case_id ?? String(i);

  // missing_gt: group background FPs by case id across models.
  const byCase = new Map<string, Fp[]>();
  for (const r of withDiag) {
    for (const fp of r.diagnostics!.background) {
      const id = caseId(r, fp.case);
      let l = byCase.get(id);
      if (!l) byCase.set(id, (l = []));
      l.push({ model: r.model, fp, used: false });
    }
  }
  const missing: { s: Suspect; models: number; score: number; order: number }[] = [];
  let seq = 0;
  const multi = withDiag.length >= 2;
  for (const [id, fps] of byCase) {
    fps.sort((a, b) => (b.fp.score ?? 1) - (a.fp.score ?? 1));
    for (const seed of fps) {
      if (seed.used) continue;
      const group = [seed];
      seed.used = true;
      if (multi) {
        for (const other of fps) {
          if (other.used || group.some((g) => g.model === other.model)) continue;
          if (group.every((g) => iouOf(geo(g, withDiag), geo(other, withDiag)) > OVERLAP)) {
            group.push(other);
            other.used = true;
          }
        }
        if (group.length < 2) {
          seed.used = false; // it may still join a later seed's group
          continue;
        }
      }
      const scores = group.map((g) => g.fp.score).filter((x): x is number => x !== undefined);
      const s: Suspect = { kind: 'missing_gt', case_id: id, pred: Object.fromEntries(group.map((g) => [g.model, g.fp.pred])) };
      if (scores.length) s.score = scores.reduce((a, b) => a + b, 0) / scores.length;
      missing.push({ s, models: group.length, score: s.score ?? 1, order: seq++ });
    }
  }
  missing.sort((a, b) => b.models - a.models || b.score - a.score || a.order - b.order);

  // wrong_gt: every model that has the case classes the GT `missed`.
  const misses = new Map<string, number>();
  const has = new Map<string, number>();
  const order: string[] = [];
  for (const r of withDiag) {
    for (const c of r.cases) has.set(c.case_id, (has.get(c.case_id) ?? 0) + 1);
    const m = r.diagnostics!.missed;
    for (let i = 0; i + 1 < m.length; i += 2) {
      const key = JSON.stringify([caseId(r, m[i]), m[i + 1]]);
      const n = misses.get(key);
      if (n === undefined) order.push(key);
      misses.set(key, (n ?? 0) + 1);
    }
  }
  const wrong: Suspect[] = [];
  for (const key of order) {
    const [id, g] = JSON.parse(key) as [string, number];
    if (misses.get(key) === has.get(id)) wrong.push({ kind: 'wrong_gt', case_id: id, gt: g });
  }
  return [...missing.map((m) => m.s), ...wrong];
}

function geo(f: Fp, results: readonly Pick<ModelResult, 'model' | 'diagnostics'>[]): Geo {
  if (!f.geo) {
    const mode = results.find((r) => r.model === f.model)?.diagnostics?.polygon_mode ?? 'pieces';
    f.geo = geoOf(f.fp.shape, mode);
  }
  return f.geo;
}
