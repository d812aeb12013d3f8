/**
 * Chronicles-OCR: seven historical Chinese scripts, four tasks (Classification, Parsing,
 * Spotting with Detection beside it, Recognition), scored exactly as the official `judge.py` +
 * `summarize.py` do (see shared/specs/chronicles.md).
 */
import { type BenchmarkAdapter, type ProtocolSpec } from '../../model';
import { resolveProtocolFromSpecs } from '../protocolOptions';
import { UNCERTAINTY_OPTION_SPECS } from '../../uncertainty/options';
import { applyChroniclesCorrections, exportChroniclesGroundTruth } from './corrections';
import { datasetRoot, findGtFile, loadChroniclesDataset, type ChroniclesDataset } from './gt';
import { bundledChroniclesPredictions, loadChroniclesPredictions, type ChroniclesPreds } from './predictions';
import { scoreModel } from './score';
import { CHRONICLES_REPORT_LAYOUT } from './reportLayout';

const protocols: readonly ProtocolSpec[] = [
  {
    name: 'official',
    description: 'judge.py + summarize.py: judges the extract stored at inference time',
    default: true,
    options: [
      {
        key: 'reextract',
        kind: 'boolean',
        default: null,
        help: 'run the official extraction rules on the raw answer first (for result files made by other tools)',
      },
      {
        key: 'recognition_target',
        kind: 'enum',
        default: null,
        choices: ['auto', 'stored', 'recompute'],
        help: "Recognition target of an answer without gt_char: auto (default) = the official 0 (no_gt) for records infer.py wrote, the target infer.py picks (recomputed from the GT) for batch outputs and other tools' answers; stored = always the official 0; recompute = always the recomputed target",
      },
      ...UNCERTAINTY_OPTION_SPECS,
    ],
  },
];

export const chroniclesAdapter: BenchmarkAdapter<ChroniclesDataset, ChroniclesPreds> = {
  id: 'chronicles',
  title: 'Chronicles-OCR',
  description: 'Chronicles-OCR — 7 Chinese scripts, 4 tasks',
  reportLayout: CHRONICLES_REPORT_LAYOUT,
  protocols,
  expects: 'data/Chronicles_OCR.jsonl (+ data/images/<script>/…, infer_results/<model>/results.jsonl)',
  async detect(src) {
    const gt = findGtFile(src);
    if (!gt) return null;
    const dataDir = gt.includes('/') ? gt.slice(0, gt.lastIndexOf('/')) : '';
    const images = src.list().some((e) => e.path.startsWith(dataDir ? `${dataDir}/images/` : 'images/'));
    return {
      benchmark: 'chronicles',
      confidence: images ? 0.95 : 0.8,
      reason: `found ${gt}${images ? ' and its images/ folder' : ''}`,
    };
  },
  resolveProtocol: (n, o) => resolveProtocolFromSpecs('chronicles', protocols, n, o),
  loadDataset: (src, ctx) => loadChroniclesDataset(src, ctx),
  bundledPredictions(src) {
    const gt = findGtFile(src);
    return gt ? bundledChroniclesPredictions(src, datasetRoot(gt)) : [];
  },
  loadPredictions: (dataset, input, ctx) => loadChroniclesPredictions(dataset, input, ctx),
  predictionUse: (_ds, p) => ({
    usable: p.data.rows.size,
    file: p.data.file,
    why:
      p.counts.lines === 0
        ? 'the file has no lines'
        : `none of its ${p.counts.lines} line(s) is a row of the ground truth (${p.counts.malformed_lines} malformed, ${p.counts.unknown_rows} with an image_path not in Chronicles_OCR.jsonl)`,
  }),
  score: (dataset, preds, protocol, ctx) => scoreModel(dataset, preds, protocol, ctx),
  applyCorrections: applyChroniclesCorrections,
  exportGroundTruth: exportChroniclesGroundTruth,
};
