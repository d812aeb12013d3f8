/**
 * gansulishuzhi: figure boxes on 1970s scanned book pages, scored by
 * shared/specs/gansulishuzhi.md (greedy max-IoU matching, P/R/F1 at IoU 0.3 / 0.5 / 0.7,
 * mean IoU). The runs/ folder the companion repository writes ships as bundled predictions.
 */
import { basename, joinPath, stem } from '../../io/fileSource';
import type { BenchmarkAdapter, PredictionInput, ProtocolSpec } from '../../model';
import { resolveProtocolFromSpecs } from '../protocolOptions';
import { UNCERTAINTY_OPTION_SPECS } from '../../uncertainty/options';
import { QWEN_OPTION } from '../../text/groundingTokens';
import { applyGansuCorrections, exportGansuGroundTruth } from './corrections';
import { findGansuRoot, loadGansu, MANIFEST, type GansuDataset } from './dataset';
import { loadGansuPredictions, type GansuPredictions } from './predictions';
import { scoreGansu } from './score';
import { GANSU_REPORT_LAYOUT } from './reportLayout';
import { BOX_OPTION_SPECS, checkBoxOptions } from '../boxOptions';

export const GANSU_PROTOCOLS: readonly ProtocolSpec[] = [
  {
    name: 'gansulishuzhi-spec',
    description: 'shared/specs/gansulishuzhi.md: greedy max-IoU matching once, micro P/R/F1 at IoU 0.3 / 0.5 / 0.7, mean IoU',
    default: true,
    options: [
      {
        key: 'coords',
        kind: 'enum',
        default: 'abs',
        choices: ['abs', 'rel1000'],
        help: 'space of predicted boxes: pixels, or 0–1000 scaled by image_size_px (a line’s own "coords" wins)',
      },
      {
        key: QWEN_OPTION,
        kind: 'boolean',
        default: null,
        help: 'read Qwen2-VL grounding tokens <|box_start|>(x1,y1),(x2,y2)<|box_end|> in raw answers (0–1000 of the page, whatever coords says; with or without the special tokens)',
      },
      ...BOX_OPTION_SPECS,
      ...UNCERTAINTY_OPTION_SPECS,
    ],
  },
];

export const gansulishuzhiAdapter: BenchmarkAdapter<GansuDataset, GansuPredictions> = {
  id: 'gansulishuzhi',
  title: 'gansulishuzhi',
  description: 'gansulishuzhi — figure boxes on scanned pages',
  reportLayout: GANSU_REPORT_LAYOUT,
  protocols: GANSU_PROTOCOLS,
  expects: `${MANIFEST} with a pages/ folder beside it (optional overlays/, runs/<model>.jsonl)`,
  async detect(src) {
    const found = findGansuRoot(src);
    if (!found) return null;
    const where = found.root === '' ? 'the folder root' : found.root;
    if (found.hasPages) return { benchmark: 'gansulishuzhi', confidence: 0.9, reason: `${MANIFEST} and pages/ in ${where}` };
    // A manifest.jsonl alone is a common name: peek for the gansulishuzhi field before claiming it.
    const path = joinPath(found.root, MANIFEST);
    const head = src.readRange ? await src.readRange(path, 0, 4096) : await src.read(path);
    if (!new TextDecoder().decode(head).includes('"gt_bboxes"')) return null;
    return { benchmark: 'gansulishuzhi', confidence: 0.6, reason: `${MANIFEST} with gt_bboxes in ${where} (no pages/ folder)` };
  },
  resolveProtocol: (name, options) => checkBoxOptions('gansulishuzhi', resolveProtocolFromSpecs('gansulishuzhi', GANSU_PROTOCOLS, name, options)),
  loadDataset: (src, ctx) => loadGansu(src, ctx),
  bundledPredictions(src) {
    const found = findGansuRoot(src);
    if (!found) return [];
    const prefix = joinPath(found.root, 'runs') + '/';
    return src
      .list()
      .filter((e) => e.path.startsWith(prefix) && !e.path.slice(prefix.length).includes('/') && e.path.toLowerCase().endsWith('.jsonl'))
      .map((e): PredictionInput => ({ source: src, path: e.path, name: stem(basename(e.path)) }));
  },
  loadPredictions: (ds, input, ctx) => loadGansuPredictions(ds, input, ctx),
  predictionUse: (_ds, p) => ({
    usable: p.data.byPage.size,
    file: p.data.file,
    why: `no line names a page of manifest.jsonl (${p.counts.malformed_lines} malformed, ${p.counts.unknown_lines} for unknown pages)${p.warnings[0] ? `; first: ${p.warnings[0]}` : ''}`,
  }),
  score: (ds, preds, protocol, ctx) => scoreGansu(ds, preds, protocol, ctx),
  applyCorrections: (ds, corrections) => applyGansuCorrections(ds, corrections),
  exportGroundTruth: (ds) => exportGansuGroundTruth(ds),
};
