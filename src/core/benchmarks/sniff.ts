/**
 * Whose file is this? Recognises each benchmark's prediction shapes (and the ground-truth files
 * users drop by mistake) from the first records of a file, so that a refused prediction input can
 * say "this is a TABench predictions file" rather than only "nothing usable".
 *
 * Only the head of a file is read (64 KiB): enough for the first records of any of these formats,
 * and cheap for a 1 GB JSONL. Recognition is by field names, never by values, and it never decides
 * how a file is scored — the adapters' readers do that; this only names what a refused file is.
 */
import { basename, filesUnder } from '../io/fileSource';
import { decodeText } from '../io/text';
import type { BenchmarkId, PredictionInput } from '../model';

export interface Sniffed {
  benchmark: BenchmarkId;
  /** Completes "this is …": "a TABench predictions file". */
  what: string;
  /** A ground-truth file, not predictions: worth saying even to its own benchmark. */
  notPredictions?: boolean;
}

const HEAD_BYTES = 64 << 10;
/** Records looked at; the first one recognised decides. */
const RECORDS = 20;

const LTB_MMOCR: Sniffed = { benchmark: 'ltb', what: 'an LTB / MMOCR text-detection file' };
const LTB_PADDLE: Sniffed = { benchmark: 'ltb', what: 'an LTB / PaddleOCR text-detection file (<image>\\t<JSON boxes> lines)' };
const LTB_ICDAR: Sniffed = { benchmark: 'ltb', what: 'an LTB / ICDAR2015 submission (x1,y1,…,x4,y4 lines)' };
const LTB_OBJECT: Sniffed = { benchmark: 'ltb', what: 'an LTB detection file ({image: [[x1, y1, …, score]]})' };

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const has = (r: Record<string, unknown>, k: string) => r[k] !== undefined;

/** One parsed record (a JSONL line, a list entry, a whole JSON document). */
export function sniffRecord(r: Record<string, unknown>): Sniffed | null {
  // An OpenAI-compatible batch output line (custom_id + response / error) can hold answers for any
  // benchmark: its reader names what custom_id must hold, so no benchmark is guessed here.
  if (has(r, 'custom_id') && (has(r, 'response') || has(r, 'result') || has(r, 'error'))) return null;
  // Chronicles-OCR infer.py: the GT row plus infer_results; the GT file itself has font_type but no results.
  if (has(r, 'infer_results')) return { benchmark: 'chronicles', what: 'a Chronicles-OCR results file (infer_results)' };
  if (has(r, 'font_type') && typeof r.image_path === 'string') {
    return { benchmark: 'chronicles', what: 'the Chronicles-OCR ground truth (Chronicles_OCR.jsonl), not a model\'s results', notPredictions: true };
  }
  // PulseBench-Select: one line per sample_id.
  if (has(r, 'sample_id')) return { benchmark: 'pulsebench-select', what: 'a PulseBench-Select predictions file (sample_id lines)' };
  // LTB detectors: MMOCR 1.x inferencer (det_polygons / polygons / bboxes + scores), MMOCR 0.x
  // (boundary_result, or result: [{box, box_score}]), PaddleX (dt_polys).
  if (has(r, 'det_polygons') || has(r, 'boundary_result') || has(r, 'dt_polys')) return LTB_MMOCR;
  if ((has(r, 'polygons') || has(r, 'bboxes')) && has(r, 'scores')) return LTB_MMOCR;
  if (Array.isArray(r.result) && r.result.some((e) => isObj(e) && has(e, 'box'))) return LTB_MMOCR;
  if (Array.isArray(r.data_list) && has(r, 'metainfo')) {
    return { benchmark: 'ltb', what: 'LTB ground truth (an MMOCR textdet annotation file), not predictions', notPredictions: true };
  }
  // TABench: queries carry a task_type R2T / T2R or a question about a location.
  if (r.task_type === 'R2T' || r.task_type === 'T2R' || (typeof r.question === 'string' && (has(r, 'coord_type') || has(r, 'bbox')))) {
    const output = ['prediction', 'pred', 'response', 'output', 'model_output', 'answer'].some((k) => has(r, k));
    return output
      ? { benchmark: 'tabench', what: 'a TABench predictions file' }
      : { benchmark: 'tabench', what: 'the TABench benchmark file (queries without model output), not predictions', notPredictions: true };
  }
  // gansulishuzhi runs: a page (id or image_path) and its figure boxes or the model's answer.
  if (['pred_bboxes', 'bboxes', 'boxes'].some((k) => has(r, k))) return { benchmark: 'gansulishuzhi', what: 'a gansulishuzhi run (figure boxes per page)' };
  if ((has(r, 'id') || typeof r.image_path === 'string') && ['response', 'output', 'prediction'].some((k) => has(r, k))) {
    return { benchmark: 'gansulishuzhi', what: 'a gansulishuzhi run (figure boxes per page)' };
  }
  return null;
}

/** `{ "<image>": [[x1, y1, …, score], …] }` — LTB's form 1 — from its first value. */
function isLtbObject(doc: Record<string, unknown>): boolean {
  const first = Object.values(doc).find((v) => Array.isArray(v) && v.length > 0) as unknown[] | undefined;
  return first !== undefined && Array.isArray(first[0]) && (first[0] as unknown[]).every((x) => typeof x === 'number');
}

function sniffValue(v: unknown): Sniffed | null {
  if (Array.isArray(v)) {
    for (const e of v.slice(0, RECORDS)) {
      const s = isObj(e) ? sniffRecord(e) : null;
      if (s) return s;
    }
    return null;
  }
  if (!isObj(v)) return null;
  if (Array.isArray(v.predictions)) return sniffValue(v.predictions) ?? sniffRecord(v);
  return sniffRecord(v) ?? (isLtbObject(v) ? LTB_OBJECT : null);
}

const ICDAR_LINE = /^\uFEFF?\s*-?\d+(\.\d+)?(\s*,\s*-?\d+(\.\d+)?){7}/;
const PADDLE_LINE = /^[^\t{[]+\t\s*\[/;
/** A JSON object document cut off by the 64 KiB head: `{"img_1.jpg": [[12.5, …` */
const LTB_OBJECT_HEAD = /^\uFEFF?\s*\{\s*"[^"]+"\s*:\s*\[\s*\[\s*-?\d/;

/** The head of one file (possibly cut mid-line). */
export function sniffText(text: string, fileName = ''): Sniffed | null {
  const t = text.replace(/^\uFEFF/, '');
  const lines = t.split('\n').map((l) => l.replace(/\r$/, '')).filter((l) => l.trim() !== '');
  if (lines.length === 0) return null;
  if (/^res_.*\.txt$/i.test(basename(fileName)) && ICDAR_LINE.test(lines[0])) return LTB_ICDAR;
  const start = t.trimStart()[0];
  if (start === '{' || start === '[') {
    try {
      const s = sniffValue(JSON.parse(t));
      if (s) return s;
    } catch {
      // A JSONL file, or a document cut off by the head: look at its lines.
    }
    for (const line of lines.slice(0, RECORDS)) {
      try {
        const s = sniffValue(JSON.parse(line));
        if (s) return s;
      } catch {
        // the last line of the head may be cut
      }
    }
    if (LTB_OBJECT_HEAD.test(t)) return LTB_OBJECT;
    return null;
  }
  if (PADDLE_LINE.test(lines[0])) return LTB_PADDLE;
  if (ICDAR_LINE.test(lines[0])) return LTB_ICDAR;
  return null;
}

async function head(input: PredictionInput, path: string, size: number): Promise<string | null> {
  const src = input.source;
  if (src.readRange) return decodeText(await src.readRange(path, 0, Math.min(size, HEAD_BYTES)));
  // Without ranged reads only a small file is read whole just to name it.
  if (size > 8 << 20) return null;
  return decodeText((await src.read(path)).subarray(0, HEAD_BYTES));
}

/** A prediction file or folder as given: which benchmark's predictions it looks like, if any. */
export async function sniffPredictions(input: PredictionInput): Promise<Sniffed | null> {
  const listing = input.source.list();
  const file = input.path === '' ? undefined : listing.find((e) => e.path === input.path);
  if (file) {
    if (/\.zip$/i.test(file.path)) return null;
    const text = await head(input, file.path, file.size);
    return text === null ? null : sniffText(text, file.path);
  }
  const files = filesUnder(input.source, input.path).filter((e) => !basename(e.path).startsWith('.'));
  if (files.some((e) => /^res_.*\.txt$/i.test(basename(e.path)))) return LTB_ICDAR;
  // results.jsonl first (Chronicles' infer_results/<model>/), then any other text file.
  const rank = (p: string) => (basename(p) === 'results.jsonl' ? 0 : /\.jsonl$/i.test(p) ? 1 : /\.json$/i.test(p) ? 2 : /\.txt$/i.test(p) ? 3 : 9);
  const candidates = files.filter((e) => rank(e.path) < 9).sort((a, b) => rank(a.path) - rank(b.path) || a.path.localeCompare(b.path));
  for (const e of candidates.slice(0, 3)) {
    const text = await head(input, e.path, e.size);
    const s = text === null ? null : sniffText(text, e.path);
    if (s) return s;
  }
  return null;
}
