/**
 * PulseBench-Select — which options on a form are selected (shared/specs/pulsebench-select.md).
 * Selection F1 on the positive class: token overlap ≥ 0.80 plus a centroid veto, matched per
 * sample and page in prediction-file order.
 *
 * Besides the BenchmarkAdapter contract this adapter offers `imageBytes(dataset, caseId)`: the
 * page images of the Hugging Face layout live inside parquet rows, so the viewer cannot fetch
 * them by path. A case's `image_file` is then `parquet:<file>#<row>` (a virtual path).
 */
import { stem, subSource, type FileSource } from '../../io/fileSource';
import { readParquetRows, type ParquetFile } from '../../io/parquet';
import { decodeText } from '../../io/text';
import {
  InputError,
  type BenchmarkAdapter,
  type Detection,
  type LoadedPredictions,
  type PredictionInput,
  type Protocol,
  type ProtocolSpec,
  type RunContext,
} from '../../model';
import { resolveProtocolFromSpecs } from '../protocolOptions';
import { UNCERTAINTY_OPTION_SPECS } from '../../uncertainty/options';
import {
  imageField,
  jsonlDataFiles,
  loadPulseDataset,
  openParquetOrThrow,
  parquetDataFiles,
  type PulseDataset,
} from './dataset';
import { isRecord } from './items';
import { DEFAULT_MATCH_OPTIONS, type MatchOptions } from './match';
import { parsePredictionFile, type PulsePredictions } from './predictions';
import { scoreDataset } from './score';
import { PULSE_REPORT_LAYOUT } from './reportLayout';

export type { PulseDataset, LeaderboardRow, PulseSample } from './dataset';
export type { PulsePredictions } from './predictions';

const protocols: readonly ProtocolSpec[] = [
  {
    name: 'pulsebench-select-spec',
    description:
      'Selection F1 of the card: token overlap ≥ 0.80 (NFKC, lower-case, letter/digit runs as sets) and a centroid veto, per sample and page',
    default: true,
    options: [
      {
        key: 'empty_overlap',
        kind: 'enum',
        default: 0,
        choices: [0, 1],
        help: 'overlap of two empty token sets: 0 (an empty label matches nothing) or 1',
      },
      {
        key: 'centroid_max',
        kind: 'number',
        default: 0.35,
        help: 'largest centroid distance (normalised page units) for a match when both items have 8-number boxes; -1 disables the veto',
      },
      {
        key: 'missing_box',
        kind: 'enum',
        default: 'pass',
        choices: ['pass', 'fail'],
        help: 'when either item has no 8-number box: pass skips the veto, fail makes it fail (no effect when centroid_max=-1)',
      },
      ...UNCERTAINTY_OPTION_SPECS,
    ],
  },
];

export function matchOptionsOf(protocol: Protocol): MatchOptions {
  const o = protocol.options;
  return {
    emptyOverlap: o.empty_overlap === undefined ? DEFAULT_MATCH_OPTIONS.emptyOverlap : Number(o.empty_overlap),
    centroidMax: o.centroid_max === undefined ? DEFAULT_MATCH_OPTIONS.centroidMax : Number(o.centroid_max),
    missingBox: o.missing_box === 'fail' ? 'fail' : 'pass',
  };
}

/** The first line of a JSONL file (64 KiB at most), for detection without reading it all. */
async function firstLine(src: FileSource, path: string): Promise<string> {
  const bytes = src.readRange ? await src.readRange(path, 0, 65536) : await src.read(path);
  const text = decodeText(bytes);
  const nl = text.indexOf('\n');
  return nl < 0 ? text : text.slice(0, nl);
}

async function detect(src: FileSource): Promise<Detection | null> {
  const pq = parquetDataFiles(src);
  if (pq.length > 0) {
    try {
      const pf = await openParquetOrThrow(src, pq[0]);
      if (pf.columns.includes('sample_id') && pf.columns.includes('ground_truth')) {
        return { benchmark: 'pulsebench-select', confidence: 0.95, reason: `${pq[0]} has sample_id and ground_truth columns` };
      }
    } catch {
      /* unreadable: fall through to the weak claim below, so loading says what is wrong */
    }
    // The right file names without the right columns: a weak claim, so that if nothing else
    // recognises the folder, loading it explains which columns are missing.
    return { benchmark: 'pulsebench-select', confidence: 0.2, reason: `${pq[0]} (columns not checked or not PulseBench-Select)` };
  }
  for (const path of jsonlDataFiles(src)) {
    let line: string;
    try {
      line = await firstLine(src, path);
    } catch {
      continue;
    }
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      // A first row longer than the 64 KiB peeked at (a dense form): judge by its keys.
      if (/^\s*\{/.test(line) && /"sample_id"\s*:/.test(line) && /"ground_truth"\s*:/.test(line)) {
        return { benchmark: 'pulsebench-select', confidence: 0.8, reason: `${path} rows name sample_id and ground_truth` };
      }
      continue;
    }
    if (isRecord(v) && 'sample_id' in v && 'ground_truth' in v) {
      return { benchmark: 'pulsebench-select', confidence: 0.9, reason: `${path} rows have sample_id and ground_truth` };
    }
  }
  return null;
}

/** Prediction files of an input: the file itself, or every .jsonl in a folder (one model each). */
function predictionFiles(input: PredictionInput): { src: FileSource; path: string; model: string }[] {
  if (input.path !== '' && input.source.list().some((e) => e.path === input.path)) {
    return [{ src: input.source, path: input.path, model: input.name }];
  }
  const src = input.path === '' ? input.source : subSource(input.source, input.path);
  const files = src
    .list()
    .map((e) => e.path)
    .filter((p) => /\.jsonl$/i.test(p))
    .sort();
  if (files.length === 0) throw new InputError(`prediction ${input.name}: no .jsonl file (PulseBench-Select predictions are JSONL)`);
  if (files.length === 1 && input.source.list().length === 1) return [{ src, path: files[0], model: input.name }];
  return files.map((path) => ({ src, path, model: stem(path) }));
}

async function loadPredictions(
  dataset: PulseDataset,
  input: PredictionInput,
  ctx?: RunContext,
): Promise<LoadedPredictions<PulsePredictions>[]> {
  const known = new Set(dataset.byId.keys());
  const out: LoadedPredictions<PulsePredictions>[] = [];
  for (const f of predictionFiles(input)) {
    ctx?.signal?.throwIfAborted();
    // Name the file itself (not the model) so a one-line error points at what to fix.
    const label = f.path === input.path ? input.path : `${input.name}/${f.path}`;
    let parsed;
    try {
      parsed = await parsePredictionFile(f.src, f.path, known, ctx);
    } catch (e) {
      throw new InputError(`prediction file ${label}: ${(e as Error).message}`);
    }
    const emptyFile = parsed.knownLines === 0 && parsed.preds.malformedLines === 0 && parsed.preds.unknownSamples === 0;
    if (emptyFile) {
      // An empty file is refused (specs/README.md: "a prediction input with no usable record"),
      // not scored as a model that predicted nothing: a silent zero is the worse mistake.
      throw new InputError(`prediction file ${label}: no prediction lines (the file is empty) — nothing to score`);
    } else if (parsed.knownLines === 0) {
      // e.g. another benchmark's file, a JSON (not JSONL) file, or predictions for another split.
      const why = parsed.warnings[0] ? `; first problem: ${parsed.warnings[0]}` : '';
      throw new InputError(
        `prediction file ${label}: no line names a sample_id of this dataset — not PulseBench-Select predictions?${why}`,
      );
    }
    out.push({
      model: f.model,
      data: parsed.preds,
      warnings: parsed.warnings,
      counts: { malformed_lines: parsed.preds.malformedLines, unknown_samples: parsed.preds.unknownSamples },
    });
  }
  return out;
}

/**
 * The most recently read row group of images, per dataset: a viewer walking cases in order
 * reads each row group once instead of once per image.
 */
const imageCache = new WeakMap<PulseDataset, { key: string; rows: Map<number, Uint8Array> }>();
const sources = new WeakMap<PulseDataset, FileSource>();
/** Opened parquet files per dataset, so each image read does not parse the footer again. */
const openFiles = new WeakMap<PulseDataset, Map<string, Promise<ParquetFile>>>();

function openCached(dataset: PulseDataset, src: FileSource, file: string): Promise<ParquetFile> {
  let m = openFiles.get(dataset);
  if (!m) openFiles.set(dataset, (m = new Map()));
  let p = m.get(file);
  if (!p) {
    p = openParquetOrThrow(src, file);
    p.catch(() => m.delete(file));
    m.set(file, p);
  }
  return p;
}

/** `parquet:<file>#<row>`, the virtual image_file of a case of the parquet layout. */
export function parquetImageRef(imageFile: string): { file: string; row: number } | null {
  const m = /^parquet:(.+)#(\d+)$/.exec(imageFile);
  return m ? { file: m[1], row: Number(m[2]) } : null;
}

async function imageBytes(dataset: PulseDataset, caseIdOrImageFile: string): Promise<Uint8Array | null> {
  const src = sources.get(dataset);
  if (!src) return null;
  const image = dataset.byId.get(caseIdOrImageFile)?.image ?? virtualRef(dataset, caseIdOrImageFile);
  if (!image) return null;
  if (image.kind === 'file') return src.read(image.path);
  const { file, row } = image;
  const pf = await openCached(dataset, src, file);
  const rg = pf.rowGroups.find((g) => row >= g.rowStart && row < g.rowEnd);
  if (!rg) return null;
  const key = `${file}#${rg.rowStart}`;
  let cached = imageCache.get(dataset);
  if (!cached || cached.key !== key) {
    const rows = await readParquetRows(pf, { columns: ['image'], rowStart: rg.rowStart, rowEnd: rg.rowEnd, utf8: false });
    const map = new Map<number, Uint8Array>();
    rows.forEach((r, k) => {
      const b = imageField(r.image).bytes;
      if (b) map.set(rg.rowStart + k, b);
    });
    cached = { key, rows: map };
    imageCache.set(dataset, cached);
  }
  return cached.rows.get(row) ?? null;
}

/** A virtual path names a row of one of the dataset's own data files, nothing else. */
function virtualRef(dataset: PulseDataset, imageFile: string): { kind: 'parquet'; file: string; row: number } | null {
  const ref = parquetImageRef(imageFile);
  if (!ref || !dataset.samples.some((s) => s.image?.kind === 'parquet' && s.image.file === ref.file)) return null;
  return { kind: 'parquet', ...ref };
}

export interface PulsebenchAdapter extends BenchmarkAdapter<PulseDataset, PulsePredictions> {
  /**
   * The encoded page image (PNG/JPEG bytes as stored) of a case, given its case_id or its
   * `image_file` (`parquet:<file>#<row>` or a folder path); null when there is none.
   */
  imageBytes(dataset: PulseDataset, caseIdOrImageFile: string): Promise<Uint8Array | null>;
}

export const pulsebenchAdapter: PulsebenchAdapter = {
  id: 'pulsebench-select',
  title: 'PulseBench-Select',
  description: 'PulseBench-Select — selected options in forms',
  reportLayout: PULSE_REPORT_LAYOUT,
  protocols,
  expects: 'data/train-*.parquet with sample_id, image and ground_truth columns (or data/*.jsonl rows with sample_id, ground_truth, image path)',
  detect,
  resolveProtocol: (n, o) => resolveProtocolFromSpecs('pulsebench-select', protocols, n, o),
  async loadDataset(src, ctx) {
    const d = await loadPulseDataset(src, ctx);
    sources.set(d, src);
    return d;
  },
  bundledPredictions: () => [],
  loadPredictions,
  score(dataset, preds, protocol, ctx) {
    return scoreDataset(dataset, preds, matchOptionsOf(protocol), ctx);
  },
  imageBytes,
};
