/**
 * The two MMOCR `hmean-iou` variants LTB can be scored with, and their options. Every place the
 * variants differ is a field of `Variant`, so the scorer has one code path.
 */
import type { MultiPieceMode } from '../../geometry/polygonRegion';
import { InputError, type OptionSpec, type Protocol, type ProtocolSpec } from '../../model';
import { resolveProtocolFromSpecs } from '../protocolOptions';
import { UNCERTAINTY_OPTION_SPECS } from '../../uncertainty/options';
import { SPLIT_KEYS, SWEEP_THRESHOLDS } from './splits';

const OPTIONS: readonly OptionSpec[] = [
  { key: 'iou', kind: 'number', default: 0.5, help: 'a GT and a prediction match when IoU > iou (strict); the official value is 0.5' },
  {
    key: 'score_thr',
    kind: 'number',
    default: null,
    help: 'one fixed score threshold for every split instead of the 0.3…0.9 sweep (a prediction takes part when f32(score) ≥ f32(t) in mmocr-1.0.1, score > t in mmocr-0.6.3, as the official code does with min_score_thr = t)',
  },
  {
    key: 'case_split',
    kind: 'enum',
    default: null,
    choices: SPLIT_KEYS,
    help: 'the split (at its best threshold) that the per-image cases show; default hard, else norm. Does not change any metric',
  },
  {
    key: 'icdar_ninth',
    kind: 'enum',
    default: null,
    choices: ['auto', 'confidence', 'transcription'],
    help: 'ICDAR res files x1,…,y4,<9th>: the 9th field is a confidence (auto, the default: when every nine-field line of the file has a number in [0, 1]) or a transcription (every polygon scores 1.0); confidence / transcription read every file so',
  },
  {
    key: 'case_threshold',
    kind: 'number',
    default: null,
    help: 'the score threshold of the sweep (0.3 … 0.9) at which the per-image cases show the case split; default its best threshold. Does not change any metric',
  },
  ...UNCERTAINTY_OPTION_SPECS,
];

export const LTB_PROTOCOLS: readonly ProtocolSpec[] = [
  {
    name: 'mmocr-1.0.1',
    description:
      'MMOCR 1.0.1 HmeanIOUMetric: float32 scores and coordinates, threshold sweep 0.3…0.9 (best per split), first-fit matching at IoU > 0.5',
    default: true,
    options: OPTIONS,
  },
  {
    name: 'mmocr-0.6.3',
    description: 'The MMOCR 0.6.3 fork shipped in the LTB repository: float64 scores, strict 0.3 pre-filter, invalid polygons kept as multi-polygons',
    options: OPTIONS,
  },
];

export function resolveLtbProtocol(name: string | undefined, raw: Record<string, string>): Protocol {
  const p = resolveProtocolFromSpecs('ltb', LTB_PROTOCOLS, name, raw);
  const iou = p.options.iou as number;
  if (!(iou >= 0 && iou < 1)) throw new InputError(`option iou=${raw.iou} for ltb: expected a number in [0, 1)`);
  if ('score_thr' in p.options) {
    const t = p.options.score_thr as number;
    if (!(t >= 0 && t <= 1)) throw new InputError(`option score_thr=${raw.score_thr} for ltb: expected a number in [0, 1]`);
  }
  if ('case_threshold' in p.options) {
    const t = p.options.case_threshold as number;
    const sweep = 'score_thr' in p.options ? [p.options.score_thr as number] : SWEEP_THRESHOLDS;
    if (!sweep.some((x) => Math.abs(x - t) < 1e-9))
      throw new InputError(`option case_threshold=${raw.case_threshold} for ltb: expected one of the thresholds scored (${sweep.map((x) => x.toFixed(1)).join(', ')})`);
  }
  return p;
}

export interface Variant {
  name: 'mmocr-1.0.1' | 'mmocr-0.6.3';
  /** Coordinates go through float32 (`np.array(polygon, dtype=np.float32)` in 1.x). */
  f32: boolean;
  multi: MultiPieceMode;
  /** The score thresholds, ascending. */
  thresholds: readonly number[];
  /** True when `thresholds` is the official sweep (metric labels @0.3 … @0.9). */
  sweep: boolean;
  iou: number;
  /** How many thresholds (from the lowest) a score passes; 0 = dropped by the pre-filter. */
  level(score: number): number;
  /** Share of a prediction inside a don't-care region, as the don't-care filter computes it. */
  overlap(inter: number, rawArea: number): number;
  /** COCO annotations the 0.6.3 loader drops entirely apply. */
  cocoDrops: boolean;
}

const f32 = Math.fround;

export function variantOf(p: Protocol): Variant {
  const is101 = p.name === 'mmocr-1.0.1';
  const fixed = typeof p.options.score_thr === 'number' ? (p.options.score_thr as number) : null;
  const thresholds = fixed === null ? SWEEP_THRESHOLDS : [fixed];
  const t32 = thresholds.map(f32);
  const iou = typeof p.options.iou === 'number' ? p.options.iou : 0.5;
  if (is101) {
    return {
      name: 'mmocr-1.0.1',
      f32: true,
      multi: 'hull',
      thresholds,
      sweep: fixed === null,
      iou,
      // numpy 1.x compares a float32 score array with a float64 scalar in float32.
      level(score) {
        const s = f32(score);
        let n = 0;
        while (n < t32.length && s >= t32[n]) n++;
        return n;
      },
      overlap: (inter, area) => inter / (area + 1e-5),
      cocoDrops: false,
    };
  }
  return {
    name: 'mmocr-0.6.3',
    f32: false,
    multi: 'pieces',
    thresholds,
    sweep: fixed === null,
    iou,
    level(score) {
      // filter_2dlist_result keeps score > min_score_thr (strict); each threshold keeps score >= t.
      // The sweep starts at 0.3; one pinned threshold t is eval_hmean(min_score_thr=t,
      // max_score_thr=t), whose pre-filter makes it score > t.
      if (!(score > (fixed ?? 0.3))) return 0;
      let n = 0;
      while (n < thresholds.length && score >= thresholds[n]) n++;
      return n;
    },
    overlap: (inter, area) => (area === 0 ? 0 : inter / area),
    cocoDrops: true,
  };
}
