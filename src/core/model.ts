/**
 * The shared vocabulary of Benchlens: what a dataset, a prediction set, a scored case and a
 * report are. Everything here is plain, structured-cloneable data so the same values serve the
 * Web Worker, the CLI and the tests.
 */
import type { BoxDialectDiagnosis } from './text/vlmBoxes/diagnose';
import type { FileSource } from './io/fileSource';
import type { ReportLayout } from './reportLayout';

export type BenchmarkId = 'ltb' | 'chronicles' | 'tabench' | 'gansulishuzhi' | 'pulsebench-select';

export type Outcome = 'pass' | 'partial' | 'fail' | 'skipped';

export type OptionValue = string | number | boolean;

/** The protocol that produced a number; it travels with every report. */
export interface Protocol {
  name: string;
  options: Record<string, OptionValue>;
}

/** Describes one option a protocol accepts, for the CLI's `--option k=v` and the page's controls. */
export interface OptionSpec {
  key: string;
  kind: 'number' | 'boolean' | 'enum' | 'string';
  default: OptionValue | null;
  choices?: readonly OptionValue[];
  help: string;
}

export interface ProtocolSpec {
  name: string;
  description: string;
  default?: boolean;
  options: readonly OptionSpec[];
}

/** Geometry as it is drawn and exported: always in the image's own pixel coordinates. */
export type Shape =
  | { type: 'box'; box: [number, number, number, number] }
  | { type: 'polygon'; points: number[] };

/**
 * The fate of one GT instance or prediction in a case.
 * - tp / fn / fp: matched GT-or-pred, missed GT, unmatched prediction;
 * - dontcare: a don't-care GT region; ignored: a prediction the protocol left out (with `reason`);
 * - below_threshold: a prediction under the score threshold; unk: excluded as unknown text;
 * - info: drawn for context only (e.g. an R2T query box, an unselected form option).
 */
export type InstanceState = 'tp' | 'fn' | 'fp' | 'dontcare' | 'ignored' | 'below_threshold' | 'unk' | 'info';

export interface Instance {
  /** Index within its side (gt or pred) of the case, stable across exports. */
  id: number;
  shape?: Shape;
  text?: string;
  score?: number;
  state: InstanceState;
  /** A sentence saying why the state is what it is: "IoU 0.48 ≤ 0.5", "overlap 62% with don't-care 3". */
  reason?: string;
  /** IoU (or overlap) with the partner when matched, else the best one found. */
  iou?: number;
  best_iou?: number;
  partner?: number;
  tags?: string[];
  /** Anything else the viewer can show (e.g. Chronicles' char, PulseBench's selected flag). */
  attrs?: Record<string, unknown>;
  /** Why this FN / FP happened (shared/specs/errors.md); only on `fn` and `fp` instances of benchmarks with a taxonomy. */
  error?: ErrorClass;
  /** The instances (ids in the same case) that caused `error`: the parts of a split, the GTs a merge covers, … */
  error_with?: ErrorWith;
}

/** Classes of a missed GT, in the spec's order (the first that applies wins). */
export const FN_CLASSES = ['split', 'order', 'merge', 'recognition', 'dontcare', 'score', 'localization', 'missed'] as const;
/** Classes of a false positive, in the spec's order. */
export const FP_CLASSES = ['duplicate', 'split', 'merge', 'recognition', 'localization', 'background'] as const;
export type FnClass = (typeof FN_CLASSES)[number];
export type FpClass = (typeof FP_CLASSES)[number];
export type ErrorClass = FnClass | FpClass;
/** The 10 distinct class names (either side), the bit order of `ModelColumns.errorClasses`. */
export const ERROR_CLASSES: readonly ErrorClass[] = [...FN_CLASSES, 'duplicate', 'background'];

/**
 * The instances behind an error class, by id within the case:
 * - fn split: pred = the parts; fp split: gt = the split GT, pred = the other parts;
 * - fn merge: pred = the covering prediction, gt = the other GTs it covers; fp merge: gt = the GTs it covers;
 * - fn order: pred = the prediction first-fit gave away, gt = the GT that took it;
 * - fn recognition: pred = the box-matching prediction with other text; fp recognition: gt = that GT;
 * - fn dontcare: pred = the ignored prediction, gt = the don't-care GT that swallowed it;
 * - fn score: pred = the under-threshold prediction;
 * - fp duplicate: gt = the GT it would match, pred = the prediction paired with that GT;
 * - localization: the partner of the best IoU (fn: pred, fp: gt); missed / background: nothing.
 */
export interface ErrorWith {
  gt?: number[];
  pred?: number[];
}

/** One unit of the taxonomy (an LTB split, a gansulishuzhi IoU threshold, …): report.json `diagnostics.errors[unit]`. */
export interface UnitErrors {
  /** The unit's score threshold when the protocol sweeps one (LTB), else null. */
  threshold: number | null;
  /** The official counts the classes add up to: fn classes sum to gt − hits, fp classes to pred − hits. */
  gt: number;
  pred: number;
  hits: number;
  /** Classes with a zero count are left out. */
  fn: Partial<Record<FnClass, number>>;
  fp: Partial<Record<FpClass, number>>;
  /** What fixing each class alone is worth on the unit's official hmean / F1; plus all_fp and all_fn. */
  dhmean: Partial<Record<ErrorClass | 'all_fp' | 'all_fn', number>>;
}

/**
 * Per-case error class counts, aligned with `ModelResult.cases`: case i's count of slot s is
 * `counts[i * ERROR_SLOTS.length + s]` (saturating at 65535). Slots are FN classes, then FP classes.
 */
export const ERROR_SLOTS: readonly { side: 'fn' | 'fp'; cls: ErrorClass }[] = [
  ...FN_CLASSES.map((cls) => ({ side: 'fn' as const, cls })),
  ...FP_CLASSES.map((cls) => ({ side: 'fp' as const, cls })),
];

export function errorSlot(side: 'fn' | 'fp', cls: ErrorClass): number {
  return side === 'fn' ? FN_CLASSES.indexOf(cls as FnClass) : FN_CLASSES.length + FP_CLASSES.indexOf(cls as FpClass);
}

/** A background FP of the case view (score ≥ 0.5 or no score), kept for the cross-model GT suspects. */
export interface BackgroundFp {
  /** Index into `ModelResult.cases`. */
  case: number;
  pred: number;
  score?: number;
  shape: Shape;
}

export interface ModelDiagnostics {
  /** One entry per unit, keyed by the unit's report key. */
  errors: Record<string, UnitErrors>;
  /**
   * The unit the case records show: LTB the case split (at its best threshold), gansulishuzhi
   * `iou0.5`, TABench `t2r`, Chronicles `all/spotting` (each spotting case is classed in its script).
   */
  case_unit: string;
  /**
   * Per-case class counts of the case unit (see ERROR_SLOTS); cases outside the taxonomy (TABench
   * R2T, Chronicles tasks other than spotting, LTB images the case split does not list) are 0.
   * Chronicles rows the judge did not score keep their GT as `missed` here and on the instances,
   * but outside every unit (the official mean leaves those rows out).
   */
  case_counts: Uint16Array;
  /** Inputs of the GT suspects (report `diagnostics.suspects`), for the case unit. */
  background: BackgroundFp[];
  /** Care GTs classed `missed` in the case unit: [case index, gt id] pairs, flat. */
  missed: Uint32Array;
  /** How polygons are repaired when suspects compare FPs of two models. */
  polygon_mode?: 'hull' | 'pieces';
}

export interface Match {
  gt: number;
  pred: number;
  iou?: number;
  [extra: string]: unknown;
}

/** Facet values the UI filters on; a list means the case carries several (e.g. LTB challenges). */
export type FacetValue = string | number | boolean | string[];

/** One scored case: the unit the official evaluator scores (an image, a query, an image+task). */
export interface CaseRecord {
  case_id: string;
  /** The path as the dataset names it (what the export carries). */
  image_path: string | null;
  /** Where the image is in the opened folder, or null when it is missing; never exported. */
  image_file?: string | null;
  task?: string;
  facets: Record<string, FacetValue>;
  score: number | null;
  outcome: Outcome;
  gt: Instance[];
  pred: Instance[];
  matches: Match[];
  errors: string[];
  /** Benchmark-specific explanation (raw answer, extraction rule, edit distance, …). */
  detail?: Record<string, unknown>;
  /** Image size in pixels when the reader knew it. */
  width?: number;
  height?: number;
}

export interface ModelResult {
  model: string;
  metrics: Record<string, number>;
  counts: Record<string, number>;
  warnings: string[];
  cases: CaseRecord[];
  /**
   * Per-case counts aligned with `cases`, set by adapters that build prediction instances on
   * demand (LTB with millions of predictions): the case table reads these instead of walking
   * every case's `pred`. Prediction instances of such results carry no text.
   */
  caseCounts?: { misses: Uint32Array; falsePositives: Uint32Array };
  /** The error taxonomy (shared/specs/errors.md) for benchmarks with a matching step; absent otherwise. */
  diagnostics?: ModelDiagnostics;
  /**
   * Per-unit sufficient statistics recorded while scoring, read by core/uncertainty
   * (shared/specs/uncertainty.md): table key → rows of `width` numbers, one row per unit in the
   * order the benchmark's uncertainty adapter documents. Never in report.json.
   */
  unitStats?: Record<string, { width: number; rows: Float64Array | Int32Array }>;
  /** Secondary numbers a view may plot (e.g. LTB per-threshold detail); not in report metrics. */
  extra?: Record<string, unknown>;
  /**
   * Protocol options the adapter settled while scoring this model (e.g. TABench's coordinate
   * space, detected from the prediction file); the report's protocol shows them.
   */
  settledOptions?: Record<string, OptionValue>;
  /**
   * TABench / gansulishuzhi: the prediction file's box-dialect diagnosis (shared/specs/vlm-boxes.md)
   * — its dialects, the headline under the official and the fitting reading, the option that reads
   * it. Its sentence is in `warnings` too; this is what the page's one-click offer is built from.
   */
  boxDialect?: BoxDialectDiagnosis;
}

export interface DatasetInfo {
  benchmark: BenchmarkId;
  /** What the page shows once a folder is recognised: "LTB — 15 splits, 10 images". */
  summary: string;
  cases: number;
  images: number;
  warnings: string[];
  /** datasetFingerprint(...) of the case keys: the key under which reviews are stored. */
  fingerprint: string;
  /** Free-form facts the page can show (e.g. { splits: 15 }, { scripts: 7 }). */
  facts?: Record<string, string | number>;
}

/**
 * A ground-truth correction made in the viewer. Kept beside the original GT, never over it; an
 * adapter that supports them scores "what if the GT were right" with `applyCorrections`.
 */
export interface GtCorrection {
  case_id: string;
  /** Index of the GT instance in the case's `gt` list, or null for an added instance. */
  gt_id: number | null;
  shape?: Shape;
  text?: string;
  /** false marks the instance don't-care (LTB), true makes it care again. */
  care?: boolean;
  deleted?: boolean;
}

/** A prediction file or folder as the user gave it. `path` '' means the root of `source`. */
export interface PredictionInput {
  source: FileSource;
  path: string;
  /** The default model name: the file's stem or the folder's name. */
  name: string;
}

/** What `BenchmarkAdapter.predictionUse` reports about one loaded prediction set. */
export interface PredictionUse {
  /** Records (lines, entries, per-image files) that name a case of the dataset. */
  usable: number;
  /** The file (or folder) the set was read from, as a message should name it. */
  file: string;
  /** Why nothing was usable, in a few words: "3 lines, all malformed", "none names an image of the dataset". */
  why: string;
}

export interface LoadedPredictions<P = unknown> {
  model: string;
  data: P;
  warnings: string[];
  counts: Record<string, number>;
}

export interface Progress {
  phase: 'read' | 'score';
  done: number;
  total: number;
  label?: string;
  /** What done/total count: items (files, cases) unless 'bytes' (a big file streaming in). */
  unit?: 'bytes';
}

export interface RunContext {
  signal?: AbortSignal;
  progress?: (p: Progress) => void;
  /**
   * false skips the error taxonomy (ModelResult.diagnostics, Instance.error): for benchmarks
   * that measure what it costs, never a protocol option; official numbers are the same either way.
   */
  diagnostics?: boolean;
}

export interface Detection {
  benchmark: BenchmarkId;
  /** 0..1: how sure the detector is; the highest wins. */
  confidence: number;
  reason: string;
}

/** An input problem that makes the whole run unusable (the CLI exits 2 with this message). */
export class InputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InputError';
  }
}

/**
 * One benchmark's protocol, end to end. Readers take a FileSource, never a browser or Node
 * object, so the same adapter runs in the worker, the CLI and the tests.
 */
export interface BenchmarkAdapter<D extends { info: DatasetInfo } = { info: DatasetInfo }, P = unknown> {
  id: BenchmarkId;
  title: string;
  /** The title with what the benchmark measures, as the page's benchmark list shows it. */
  description: string;
  /** How the page lays out this benchmark's report (plain data; the worker sends it). */
  reportLayout: ReportLayout;
  protocols: readonly ProtocolSpec[];
  /** Looks at the listing (and may peek into small files); null when it is not this benchmark. */
  detect(src: FileSource): Promise<Detection | null>;
  /** What the page says when detection fails: the files this benchmark expects. */
  expects: string;
  /** Validates `--protocol` / `--option` input; throws InputError on unknown names or bad values. */
  resolveProtocol(name: string | undefined, options: Record<string, string>): Protocol;
  loadDataset(src: FileSource, ctx?: RunContext): Promise<D>;
  /** Prediction files shipped inside the dataset folder (Chronicles infer_results/, gansulishuzhi runs/). */
  bundledPredictions(src: FileSource): PredictionInput[];
  /** Reads one input; a folder may hold several models (one per sub-folder). */
  loadPredictions(dataset: D, input: PredictionInput, ctx?: RunContext): Promise<LoadedPredictions<P>[]>;
  /**
   * How many records of a loaded prediction set join the dataset. The session refuses a set with
   * none (every line malformed, an empty file, another benchmark's file) instead of scoring it as
   * a silent zero. Adapters whose loader refuses such input itself may leave this out.
   */
  predictionUse?(dataset: D, preds: LoadedPredictions<P>): PredictionUse;
  score(dataset: D, preds: LoadedPredictions<P>, protocol: Protocol, ctx?: RunContext): Promise<ModelResult> | ModelResult;
  /** A copy of the dataset with the corrections applied (the original is not touched). */
  applyCorrections?(dataset: D, corrections: readonly GtCorrection[]): D;
  /** Writes the (corrected) GT back in the benchmark's own format: file path → contents. */
  exportGroundTruth?(dataset: D): Record<string, string>;
}
