/**
 * TABench prediction files: `<model>/TABench-<coords>_with_predictions.jsonl` as the card's
 * inference script writes them, or any JSONL of benchmark lines plus an output field.
 * Reading keeps each line's raw output; parsing happens when scoring, where the task is known.
 */
import { basename, dirname, filesUnder, normalizePath, stem, type FileSource } from '../../io/fileSource';
import { forEachJsonObjectLine } from '../../io/text';
import { isBatchLine, readBatchLine } from '../../text/batchOutput';
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
  /** A batch output line's custom_id, as written. */
  custom_id?: string;
  /** The line's own `coord_type`, when it has one (checked against its boxes: tabench/dialects.ts). */
  coord_type?: Space;
}

export interface TabenchPredictions {
  /** The file's name, for messages. */
  file: string;
  space: Space;
  spaceFrom: 'coord_type' | 'custom_id' | 'file name' | 'default';
  lines: PredLine[];
  /** 'batch': an OpenAI-compatible batch output (custom_id + response), joined by custom_id. */
  format: 'benchmark-lines' | 'batch';
}

/** Where a batch line's answer is (for the viewer's "output field"). */
export const BATCH_FIELD = 'response.body (batch output)';

/**
 * A batch custom_id may start with the benchmark file's space: `rel1000:17`, `abs/17`,
 * `TABench-rel1000.jsonl#17`, `TABench-abs-17`. The rest names the query (see resolveCustomId).
 */
const SPACE_PREFIX = /^(?:TABench-)?(abs|rel1000)(?:\.jsonl)?[:#/|_-](.+)$/i;

export function splitCustomId(cid: string): { space?: Space; key: string } {
  const m = SPACE_PREFIX.exec(cid.trim());
  return m ? { space: m[1].toLowerCase() as Space, key: m[2] } : { key: cid.trim() };
}

/** What custom_id must hold, for the refusal message and the docs. */
export const CUSTOM_ID_FORMS =
  'the query id (its id / qid / question_id, else its 1-based line number in the benchmark file, e.g. "17"), optionally after the space ("rel1000:17"), or "<image_path>#<question>", or a JSON object with id or image_path + question';

/**
 * The query a custom_id names: its id; else `<image_path>` + `#`, `|` or a tab + `<question>`
 * (the question may itself hold the separator, so every split is tried); else a JSON object
 * with `id` / `qid` / `question_id` or `image_path` + `question`.
 */
export function resolveCustomId(space: SpaceData, key: string): number | undefined {
  const byId = space.byId.get(key);
  if (byId !== undefined) return byId;
  if (key.startsWith('{')) {
    try {
      const o = JSON.parse(key) as Record<string, unknown>;
      const id = typeof o === 'object' && o !== null ? queryIdOf(o) : undefined;
      if (id !== undefined && space.byId.has(id)) return space.byId.get(id);
      if (typeof o.image_path === 'string' && typeof o.question === 'string') return space.byImageQuestion.get(imageQuestionKey(o.image_path, o.question));
    } catch {
      /* not JSON: no further form */
    }
    return undefined;
  }
  for (const sep of ['#', '|', '\t']) {
    for (let i = key.indexOf(sep); i > 0; i = key.indexOf(sep, i + 1)) {
      const q = space.byImageQuestion.get(imageQuestionKey(key.slice(0, i), key.slice(i + 1)));
      if (q !== undefined) return q;
    }
  }
  return undefined;
}

/** The coordinate space of a predictions file: first coord_type, else its name, else abs. */
export function detectSpace(
  firstCoordType: string | undefined,
  fileName: string,
  firstCustomIdSpace?: Space,
): { space: Space; from: TabenchPredictions['spaceFrom'] } {
  if (firstCoordType === 'abs' || firstCoordType === 'rel1000') return { space: firstCoordType, from: 'coord_type' };
  if (firstCustomIdSpace) return { space: firstCustomIdSpace, from: 'custom_id' };
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
  let firstCustomIdSpace: Space | undefined;
  let batchLines = 0;
  let failedRequests = 0;
  let truncated = 0;
  const lines: PredLine[] = [];
  const bad = (line: number, why: string) => {
    malformed += 1;
    warnings.push(`line ${line}: ${why}`);
  };
  await forEachJsonObjectLine(src, path, (r, line) => {
    jsonLines += 1;
    if (isBatchLine(r)) {
      batchLines += 1;
      const b = readBatchLine(r);
      const { space } = splitCustomId(b.custom_id);
      if (!b.ok) {
        failedRequests += 1;
        warnings.push(`line ${line}: custom_id "${b.custom_id}": ${b.why} — no answer for this query`);
        return;
      }
      firstCustomIdSpace ??= space;
      if (b.finish_reason === 'length') truncated += 1;
      lines.push({ line, field: BATCH_FIELD, value: b.content, custom_id: b.custom_id });
      return;
    }
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
      ...(r.coord_type === 'abs' || r.coord_type === 'rel1000' ? { coord_type: r.coord_type } : {}),
    });
  }, bad, ctx);
  if (jsonLines === 0) throw new InputError(`prediction ${file}: no JSON lines (is it a TABench predictions JSONL?)`);
  if (batchLines > 0 && lines.length === 0) {
    throw new InputError(`prediction ${file}: none of its ${batchLines} batch output lines has an answer (every request failed; see the first: ${warnings.find((w) => w.includes('custom_id')) ?? ''})`);
  }
  if (truncated > 0) warnings.push(`${truncated} of ${lines.length} batch answers stopped at the token limit (finish_reason "length"): they may be cut short`);
  if (outputKeyLines === 0 && batchLines === 0) {
    throw new InputError(`prediction ${file}: no line has an output field (${OUTPUT_FIELDS.join(', ')}) — is it the benchmark file itself?`);
  }
  const { space, from } = detectSpace(firstCoordType, file, firstCustomIdSpace);
  return {
    model,
    data: { file, space, spaceFrom: from, lines, format: batchLines > 0 ? 'batch' : 'benchmark-lines' },
    warnings,
    counts: { malformed_lines: malformed, ...(batchLines > 0 ? { batch_lines: batchLines, failed_requests: failedRequests, truncated_answers: truncated } : {}) },
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
    if (p.custom_id !== undefined) {
      const split = splitCustomId(p.custom_id);
      q = resolveCustomId(space, p.custom_id.trim());
      if (q === undefined && split.space !== undefined) {
        if (split.space !== space.space) {
          unknown += 1;
          warnings.push({ line: p.line, text: `line ${p.line}: custom_id "${p.custom_id}" names the ${split.space} file, but this file is scored in ${space.space}` });
          return;
        }
        q = resolveCustomId(space, split.key);
      }
      if (q === undefined) {
        unknown += 1;
        warnings.push({ line: p.line, text: `line ${p.line}: custom_id "${p.custom_id}" names no query of ${name}` });
        return;
      }
    } else if (p.id !== undefined) {
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

/**
 * Query ids are 1-based line numbers when the benchmark file has no id fields, and a batch
 * numbered from 0 would join every answer to the next query without a word: a custom_id "0"
 * (bare or after a space prefix) on such a file is taken for that mistake and refused.
 */
function refuseZeroBasedIds(space: SpaceData, preds: TabenchPredictions): void {
  if (space.byId.has('0') || !space.queries.every((q) => q.id === String(q.line))) return;
  const zero = preds.lines.find((p) => p.custom_id !== undefined && splitCustomId(p.custom_id).key === '0');
  if (!zero) return;
  throw new InputError(
    `prediction ${preds.file}: line ${zero.line} has custom_id "${zero.custom_id}", but the queries of ${BENCHMARK_FILE[space.space]} are numbered by their 1-based line — these custom_id values look 0-based and would name the next query each; number them from 1`,
  );
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
    if (loaded.data.format === 'batch') refuseZeroBasedIds(space, loaded.data);
    if (loaded.data.lines.length > 0 && join.unknown === loaded.data.lines.length && loaded.data.format === 'batch') {
      throw new InputError(
        `prediction ${loaded.data.file}: none of its ${loaded.data.lines.length} batch custom_id values names a query of ${BENCHMARK_FILE[space.space]} (first: "${loaded.data.lines[0].custom_id}"); custom_id must hold ${CUSTOM_ID_FORMS}`,
      );
    }
    if (loaded.data.lines.length > 0 && join.unknown === loaded.data.lines.length) {
      throw new InputError(
        `prediction ${loaded.data.file}: none of its ${loaded.data.lines.length} lines matches a query of ${BENCHMARK_FILE[space.space]} (by id or image_path + question) — is it for another benchmark?`,
      );
    }
    out.push(loaded);
  }
  return out;
}
