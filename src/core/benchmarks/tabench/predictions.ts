/**
 * TABench prediction files: `<model>/TABench-<coords>_with_predictions.jsonl` as the card's
 * inference script writes them, or any JSONL of benchmark lines plus an output field.
 * Reading keeps each line's raw output; parsing happens when scoring, where the task is known.
 */
import { basename, dirname, filesUnder, normalizePath, stem, type FileSource } from '../../io/fileSource';
import { forEachJsonObjectLine } from '../../io/text';
import { InputError, type LoadedPredictions, type PredictionInput, type RunContext } from '../../model';
import { BENCHMARK_FILE, imageQuestionKey, queryIdOf, type Space, type SpaceData, type TabenchDataset } from './dataset';

export const OUTPUT_FIELDS = ['prediction', 'pred', 'response', 'output', 'model_output', 'answer'] as const;

export interface PredLine {
  line: number;
  id?: string;
  image_path?: string;
  question?: string;
  /** Which output field held the answer, and its value as found (string or parsed JSON). */
  field: string;
  value: unknown;
}

export interface TabenchPredictions {
  /** The file's name, for messages. */
  file: string;
  space: Space;
  spaceFrom: 'coord_type' | 'file name' | 'default';
  lines: PredLine[];
}

/** The coordinate space of a predictions file: first coord_type, else its name, else abs. */
export function detectSpace(firstCoordType: string | undefined, fileName: string): { space: Space; from: TabenchPredictions['spaceFrom'] } {
  if (firstCoordType === 'abs' || firstCoordType === 'rel1000') return { space: firstCoordType, from: 'coord_type' };
  const n = basename(fileName);
  if (n.includes('rel1000')) return { space: 'rel1000', from: 'file name' };
  if (n.includes('abs')) return { space: 'abs', from: 'file name' };
  return { space: 'abs', from: 'default' };
}

async function readPredictionFile(
  src: FileSource,
  path: string,
  model: string,
  ctx?: RunContext,
): Promise<LoadedPredictions<TabenchPredictions>> {
  const file = basename(path) || src.label;
  const warnings: string[] = [];
  let malformed = 0;
  let jsonLines = 0;
  // Lines naming an output field, even as null: a run whose every output is null is a (useless)
  // run, scored as all missing; a file with no output field at all is the benchmark file itself.
  let outputKeyLines = 0;
  let firstCoordType: string | undefined;
  const lines: PredLine[] = [];
  const bad = (line: number, why: string) => {
    malformed += 1;
    warnings.push(`line ${line}: ${why}`);
  };
  await forEachJsonObjectLine(src, path, (r, line) => {
    jsonLines += 1;
    if (firstCoordType === undefined && (r.coord_type === 'abs' || r.coord_type === 'rel1000')) firstCoordType = r.coord_type;
    // A null output counts as absent: the next field is tried.
    if (OUTPUT_FIELDS.some((f) => f in r)) outputKeyLines += 1;
    const field = OUTPUT_FIELDS.find((f) => r[f] !== undefined && r[f] !== null);
    if (!field) {
      malformed += 1;
      warnings.push(`line ${line}: no output field (${OUTPUT_FIELDS.join(', ')})`);
      return;
    }
    lines.push({
      line,
      id: queryIdOf(r),
      image_path: typeof r.image_path === 'string' ? r.image_path : undefined,
      question: typeof r.question === 'string' ? r.question : undefined,
      field,
      value: r[field],
    });
  }, bad, ctx);
  if (jsonLines === 0) throw new InputError(`prediction ${file}: no JSON lines (is it a TABench predictions JSONL?)`);
  if (outputKeyLines === 0) {
    throw new InputError(`prediction ${file}: no line has an output field (${OUTPUT_FIELDS.join(', ')}) — is it the benchmark file itself?`);
  }
  const { space, from } = detectSpace(firstCoordType, file);
  return {
    model,
    data: { file, space, spaceFrom: from, lines },
    warnings,
    counts: { malformed_lines: malformed },
  };
}

export interface JoinResult {
  /** Per query (index in the space), the index in `lines` of its prediction, or -1. */
  predOf: Int32Array;
  /** Line-numbered warnings (unknown lines, duplicates). */
  warnings: { line: number; text: string }[];
  unknown: number;
  duplicates: number;
}

/** Joins prediction lines to queries: by id when the line has one, else by (image_path, question). */
export function joinPredictions(space: SpaceData, preds: TabenchPredictions): JoinResult {
  const predOf = new Int32Array(space.queries.length).fill(-1);
  const warnings: JoinResult['warnings'] = [];
  let unknown = 0;
  let duplicates = 0;
  const name = basename(space.file);
  preds.lines.forEach((p, i) => {
    let q: number | undefined;
    if (p.id !== undefined) {
      q = space.byId.get(p.id);
      if (q === undefined) {
        unknown += 1;
        warnings.push({ line: p.line, text: `line ${p.line}: no query with id ${p.id} in ${name}` });
        return;
      }
    } else {
      q = p.image_path !== undefined && p.question !== undefined ? space.byImageQuestion.get(imageQuestionKey(p.image_path, p.question)) : undefined;
      if (q === undefined) {
        unknown += 1;
        warnings.push({ line: p.line, text: `line ${p.line}: no query in ${name} with this image_path and question` });
        return;
      }
    }
    if (predOf[q] >= 0) {
      duplicates += 1;
      warnings.push({ line: p.line, text: `line ${p.line}: second prediction for query ${space.queries[q].id} ignored` });
      return;
    }
    predOf[q] = i;
  });
  return { predOf, warnings, unknown, duplicates };
}

const CARD_FILE = /^TABench-(abs|rel1000)_with_predictions\.jsonl$/;

/**
 * A file, or a folder such as the card's `infer_output/` (one sub-folder per model). A file named
 * as the card's script names it takes its folder's name as the model name.
 */
export async function loadTabenchPredictions(
  dataset: TabenchDataset,
  input: PredictionInput,
  ctx?: RunContext,
): Promise<LoadedPredictions<TabenchPredictions>[]> {
  const src = input.source;
  const path = normalizePath(input.path);
  const isFile = path !== '' && src.list().some((e) => e.path === path);
  const files = isFile ? [path] : filesUnder(src, path).filter((e) => e.path.toLowerCase().endsWith('.jsonl')).map((e) => e.path);
  if (files.length === 0) throw new InputError(`prediction ${input.name}: no .jsonl file`);
  const out: LoadedPredictions<TabenchPredictions>[] = [];
  for (const f of files) {
    let model = input.name;
    if (!isFile) {
      const dir = dirname(f.slice(path === '' ? 0 : path.length + 1));
      model = CARD_FILE.test(basename(f)) ? (dir === '' ? input.name : basename(dir)) : stem(f);
    }
    const loaded = await readPredictionFile(src, f, model, ctx);
    const space = dataset.spaces[loaded.data.space];
    if (!space) {
      throw new InputError(
        `prediction ${loaded.data.file}: its boxes are ${loaded.data.space} (by ${loaded.data.spaceFrom}) but the dataset has no ${BENCHMARK_FILE[loaded.data.space]}`,
      );
    }
    // A file none of whose lines joins a query is for another benchmark (or another TABench copy).
    const join = joinPredictions(space, loaded.data);
    if (loaded.data.lines.length > 0 && join.unknown === loaded.data.lines.length) {
      throw new InputError(
        `prediction ${loaded.data.file}: none of its ${loaded.data.lines.length} lines matches a query of ${BENCHMARK_FILE[space.space]} (by id or image_path + question) — is it for another benchmark?`,
      );
    }
    out.push(loaded);
  }
  return out;
}
