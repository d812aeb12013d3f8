/**
 * TABench (TextAnchor-Bench): Region-to-Text and Text-to-Region, scored by shared/specs/tabench.md.
 * The official eval.py could not be read, so the spec's defaults are options and every report
 * carries them (plus the coordinate space the predictions were read in).
 */
import { findRoot, loadTabench, BENCHMARK_FILE, type TabenchDataset } from './dataset';
import { loadTabenchPredictions, type TabenchPredictions } from './predictions';
import { scoreTabench } from './score';
import { applyTabenchCorrections, exportTabenchGroundTruth } from './corrections';
import { InputError, type BenchmarkAdapter, type ProtocolSpec } from '../../model';
import { resolveProtocolFromSpecs } from '../protocolOptions';
import { UNCERTAINTY_OPTION_SPECS } from '../../uncertainty/options';
import { QWEN_OPTION } from '../../text/groundingTokens';
import { TABENCH_REPORT_LAYOUT } from './reportLayout';
import { BOX_OPTION_SPECS, checkBoxOptions } from '../boxOptions';

export const TABENCH_PROTOCOLS: readonly ProtocolSpec[] = [
  {
    name: 'tabench-spec',
    description: 'shared/specs/tabench.md: R2T exact match after NFKC + punctuation + white space, T2R greedy F1 at IoU ≥ 0.5, QSR@1/3/5, Overall',
    default: true,
    options: [
      {
        key: 'r2t_norm',
        kind: 'enum',
        default: 'nfkc-ws-punct',
        choices: ['nfkc-ws-punct', 'nfkc-ws', 'none'],
        help: 'R2T normalisation: NFKC + punctuation to ASCII + white space folding (spec default); without the punctuation map; or none',
      },
      { key: 'r2t_casefold', kind: 'boolean', default: false, help: 'lower-case both strings before comparing (JavaScript toLowerCase)' },
      {
        key: 't2r_average',
        kind: 'enum',
        default: 'micro',
        choices: ['micro', 'macro'],
        help: 'micro pools TP/FP/FN over T2R queries; macro averages per-query P/R/F1 (a query with no GT and no prediction scores 1)',
      },
      { key: 't2r_iou', kind: 'number', default: 0.5, help: 'IoU threshold t (0 < t ≤ 1) for a T2R match and for QSR@K' },
      {
        key: 'coords',
        kind: 'enum',
        default: 'auto',
        choices: ['auto', 'abs', 'rel1000'],
        help: 'coordinate space of the predictions: auto = first coord_type, else the file name, else abs; the report shows the space used',
      },
      {
        key: QWEN_OPTION,
        kind: 'boolean',
        default: null,
        help: 'read Qwen2-VL grounding tokens <|box_start|>(x1,y1),(x2,y2)<|box_end|> in T2R answers (0–1000 of the image; with or without the special tokens)',
      },
      ...BOX_OPTION_SPECS,
      ...UNCERTAINTY_OPTION_SPECS,
    ],
  },
];

export const tabenchAdapter: BenchmarkAdapter<TabenchDataset, TabenchPredictions> = {
  id: 'tabench',
  title: 'TABench',
  description: 'TABench — text anchoring (R2T / T2R)',
  reportLayout: TABENCH_REPORT_LAYOUT,
  protocols: TABENCH_PROTOCOLS,
  expects: `${BENCHMARK_FILE.abs} and / or ${BENCHMARK_FILE.rel1000} at the root of the clone, images under <Category>/`,
  async detect(src) {
    const root = findRoot(src);
    if (root === null) return null;
    return { benchmark: 'tabench', confidence: 0.95, reason: `found TABench benchmark file(s) in ${root === '' ? 'the folder root' : root}` };
  },
  resolveProtocol(name, options) {
    const p = resolveProtocolFromSpecs('tabench', TABENCH_PROTOCOLS, name, options);
    const t = p.options.t2r_iou as number;
    if (!(t > 0 && t <= 1)) throw new InputError(`option t2r_iou=${options.t2r_iou} for tabench: expected 0 < t ≤ 1`);
    return checkBoxOptions('tabench', p);
  },
  loadDataset: (src, ctx) => loadTabench(src, ctx),
  bundledPredictions: () => [],
  loadPredictions: (ds, input, ctx) => loadTabenchPredictions(ds, input, ctx),
  score: (ds, preds, protocol, ctx) => scoreTabench(ds, preds, protocol, ctx),
  applyCorrections: (ds, corrections) => applyTabenchCorrections(ds, corrections),
  exportGroundTruth: (ds) => exportTabenchGroundTruth(ds),
};
