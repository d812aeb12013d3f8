/**
 * Reading `infer_results/<model>/results.jsonl`: each line is a GT row plus
 * `infer_results: { <task key>: { thinking, answer, extract?, … } }`. Lines are joined to the GT on
 * `image_path`; whatever cannot be used costs that line, with a warning naming it.
 */
import { basename, dirname, filesUnder, stem, subSource, type FileSource } from '../../io/fileSource';
import { forEachJsonObjectLine } from '../../io/text';
import { InputError, type LoadedPredictions, type PredictionInput, type RunContext } from '../../model';
import type { ChroniclesDataset } from './gt';
import { rowImagePath } from './gt';
import { isPlainObject, pyTruthy } from './py';
import { isBatchLine, readBatchLine } from '../../text/batchOutput';
import { TASK_KEYS } from './constants';
import { batchRecord, CUSTOM_ID_FORMS, resolveChroniclesCustomId } from './batch';

export interface PredRow {
  line: number;
  /** `infer_results`, or {} when it was missing / empty (every task then has no_infer). */
  results: Record<string, unknown>;
}

export interface ChroniclesPreds {
  file: string;
  rows: Map<string, PredRow>;
}

const GENERIC = new Set(['results', 'result', 'predictions', 'preds', 'infer_results', 'output']);

/** One model per results file: its sub-folder's name when the file is named generically. */
function modelName(path: string, fallback: string): string {
  const s = stem(path);
  const dir = basename(dirname(path));
  if (GENERIC.has(s.toLowerCase())) return dir || fallback;
  return s;
}

/** Which files of an input are one model each. */
export function predictionFiles(input: PredictionInput): { path: string; model: string }[] {
  const src = input.source;
  const listing = src.list().map((e) => e.path);
  if (input.path !== '' && listing.includes(input.path)) {
    const m = modelName(input.path, input.name);
    return [{ path: input.path, model: GENERIC.has(m.toLowerCase()) ? input.name : m }];
  }
  const under = filesUnder(src, input.path).map((e) => e.path);
  const rel = (p: string) => (input.path === '' ? p : p.slice(input.path.length + 1));
  const jsonl = under.filter((p) => p.endsWith('.jsonl'));
  // The folder itself is a model folder.
  const own = jsonl.find((p) => rel(p) === 'results.jsonl');
  if (own) return [{ path: own, model: input.name }];
  // infer_results/ (one sub-folder per model), or a dataset root holding infer_results/.
  for (const prefix of ['', 'infer_results/']) {
    const models = jsonl.filter((p) => {
      const r = rel(p);
      return r.startsWith(prefix) && /^[^/]+\/results\.jsonl$/.test(r.slice(prefix.length)) && !r.slice(prefix.length).startsWith('.');
    });
    if (models.length) return models.sort().map((p) => ({ path: p, model: basename(dirname(p)) }));
  }
  // Loose result files: one model per file, named by the file.
  const loose = jsonl.filter((p) => !rel(p).includes('/') && basename(p) !== 'Chronicles_OCR.jsonl');
  if (loose.length) return loose.sort().map((p) => ({ path: p, model: stem(p) }));
  throw new InputError(`${input.name}: no results.jsonl (expected <model>/results.jsonl as infer.py writes it)`);
}

export async function loadChroniclesPredictions(
  dataset: ChroniclesDataset,
  input: PredictionInput,
  ctx?: RunContext,
): Promise<LoadedPredictions<ChroniclesPreds>[]> {
  const out: LoadedPredictions<ChroniclesPreds>[] = [];
  for (const f of predictionFiles(input)) {
    ctx?.signal?.throwIfAborted();
    out.push(await readResultsFile(dataset, input.source, f.path, f.model, ctx));
  }
  return out;
}

export async function readResultsFile(
  dataset: ChroniclesDataset,
  src: FileSource,
  path: string,
  model: string,
  ctx?: RunContext,
): Promise<LoadedPredictions<ChroniclesPreds>> {
  const warnings: string[] = [];
  const rows = new Map<string, PredRow>();
  let malformed = 0;
  let unknown = 0;
  let skipped = 0;
  let duplicates = 0;
  let lines = 0;
  let batchLines = 0;
  let failed = 0;
  let unjoined = 0;
  let truncated = 0;
  let firstCustomId: string | undefined;
  const label = src.label === basename(path) ? path : `${src.label}/${path}`;
  const bad = (n: number, why: string) => {
    lines++;
    malformed++;
    warnings.push(`line ${n}: ${why} (${label})`);
  };
  await forEachJsonObjectLine(src, path, (v, n) => {
    lines++;
    const warn = (w: string) => warnings.push(`line ${n}: ${w} (${label})`);
    if (isBatchLine(v)) {
      // One batch line is one (image, task): it joins by custom_id, as batch.ts describes.
      batchLines++;
      const b = readBatchLine(v);
      firstCustomId ??= b.custom_id;
      if (!b.ok) {
        failed++;
        skipped++;
        warn(`custom_id "${b.custom_id}": ${b.why} — no answer for this task`);
        return;
      }
      const key = resolveChroniclesCustomId(dataset, b.custom_id);
      if (typeof key === 'string') {
        unjoined++;
        skipped++;
        warn(`custom_id "${b.custom_id}" ${key}: not judged`);
        return;
      }
      const row = rows.get(key.row.image_path) ?? { line: n, results: {} };
      const taskKey = TASK_KEYS[key.task];
      if (taskKey in row.results) {
        duplicates++;
        skipped++;
        warn(`custom_id "${b.custom_id}" repeats an earlier line for this image and task: ignored`);
        return;
      }
      if (b.finish_reason === 'length') truncated++;
      const rec = batchRecord(key, b.content);
      row.results[taskKey] = rec;
      rows.set(key.row.image_path, row);
      return;
    }
    const image = rowImagePath(v);
    if (!image) {
      skipped++;
      warn('no image_path: not judged');
      return;
    }
    if (!dataset.byPath.has(image)) {
      unknown++;
      skipped++;
      warn(`image_path "${image}" is not in the ground truth: not judged`);
      return;
    }
    const ir = v.infer_results;
    if (pyTruthy(ir) && !isPlainObject(ir)) {
      // The official judge raises on this row and writes nothing for it.
      skipped++;
      warn('infer_results is not an object: row not judged (the official judge fails on it)');
      return;
    }
    const prev = rows.get(image);
    if (prev) {
      duplicates++;
      skipped++;
      warn(`image_path "${image}" repeats line ${prev.line}: this later row is the one judged`);
    }
    rows.set(image, { line: n, results: isPlainObject(ir) ? ir : {} });
  }, bad, ctx);
  if (batchLines > 0 && rows.size === 0) {
    if (unjoined === 0) throw new InputError(`prediction ${label}: none of its ${batchLines} batch output lines has an answer (every request failed)`);
    throw new InputError(
      `prediction ${label}: none of its ${batchLines} batch custom_id values names an image and task of the ground truth (first: "${firstCustomId}"); custom_id must hold ${CUSTOM_ID_FORMS}`,
    );
  }
  if (truncated > 0) warnings.push(`${truncated} batch answers stopped at the token limit (finish_reason "length"): they may be cut short (${label})`);
  const missing = dataset.rows.length - rows.size;
  return {
    model,
    data: { file: label, rows },
    warnings,
    counts: {
      lines,
      rows: rows.size,
      malformed_lines: malformed,
      unknown_rows: unknown,
      duplicate_rows: duplicates,
      skipped,
      missing_images: missing,
      ...(batchLines > 0 ? { batch_lines: batchLines, failed_requests: failed, truncated_answers: truncated } : {}),
    },
  };
}

/** `<root>/infer_results/<model>/results.jsonl`, one prediction input per model folder. */
export function bundledChroniclesPredictions(src: FileSource, root: string): PredictionInput[] {
  const dir = root === '' ? 'infer_results' : `${root}/infer_results`;
  const files = filesUnder(src, dir)
    .map((e) => e.path)
    .filter((p) => /^[^/.][^/]*\/results\.jsonl$/.test(p.slice(dir.length + 1)))
    .sort();
  return files.map((p) => {
    const folder = dirname(p);
    return { source: subSource(src, folder), path: 'results.jsonl', name: basename(folder) };
  });
}
