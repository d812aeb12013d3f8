/**
 * gansulishuzhi runs: one JSON object per line with the page `id` (or `image_path`) and the
 * boxes in the first present of the output fields. Lines join pages by id, then exact
 * image_path, then file name; the first line for a page wins.
 */
import type { Box } from '../../geometry/box';
import { basename, filesUnder, normalizePath, stem, type FileSource } from '../../io/fileSource';
import { forEachJsonObjectLine } from '../../io/text';
import { isBatchLine, readBatchLine } from '../../text/batchOutput';
import { InputError, type LoadedPredictions, type PredictionInput, type RunContext } from '../../model';
import type { GansuDataset } from './dataset';
import { parseFigureAnswer, type FigureParse } from './parse';

export const BOX_FIELDS = ['pred_bboxes', 'bboxes', 'boxes', 'prediction', 'output', 'response'] as const;
/** Where a batch line's answer is (for the viewer's "output field"). */
export const BATCH_FIELD = 'response.body (batch output)';
/** What a batch custom_id must hold, for the refusal message and the docs. */
export const CUSTOM_ID_FORMS = 'the page id (e.g. "page_003"), its image_path ("pages/page_003.png") or the image file name';

export interface PagePrediction {
  line: number;
  field: string;
  raw: unknown;
  /** Boxes as written (before any rel1000 scaling). */
  boxes: Box[];
  rule: FigureParse['rule'];
  unparseable: boolean;
  steps: string[];
  /** The line's own `coords`, which beats the protocol option. */
  coords?: 'abs' | 'rel1000';
}

export interface GansuPredictions {
  file: string;
  /** Page index → its prediction (first line wins). */
  byPage: Map<number, PagePrediction>;
  /** 'batch': an OpenAI-compatible batch output (custom_id + response), joined by custom_id. */
  format: 'run-lines' | 'batch';
}

function joinPage(ds: GansuDataset, r: Record<string, unknown>): number | undefined {
  const id = r.id !== undefined && r.id !== null ? String(r.id) : undefined;
  const path = typeof r.image_path === 'string' ? r.image_path : undefined;
  if (id !== undefined && ds.byId.has(id)) return ds.byId.get(id);
  if (path !== undefined) return ds.byPath.get(normalizePath(path)) ?? ds.byPath.get(path) ?? ds.byName.get(basename(path));
  return undefined;
}

async function readRun(ds: GansuDataset, src: FileSource, path: string, model: string, ctx?: RunContext): Promise<LoadedPredictions<GansuPredictions>> {
  const file = basename(path) || src.label;
  const byPage = new Map<number, PagePrediction>();
  const warnings: string[] = [];
  let malformed = 0;
  let unknown = 0;
  let duplicates = 0;
  let objects = 0;
  let batchLines = 0;
  let failed = 0;
  let truncated = 0;
  let firstCustomId: string | undefined;
  const bad = (line: number, why: string) => {
    malformed += 1;
    warnings.push(`line ${line}: ${why}`);
  };
  const keep = (page: number, line: number, field: string, raw: unknown, coords: PagePrediction['coords']) => {
    const parsed = parseFigureAnswer(raw);
    if (parsed.unparseable) warnings.push(`line ${line}: unparseable_output`);
    byPage.set(page, { line, field, raw, boxes: parsed.boxes, rule: parsed.rule, unparseable: parsed.unparseable, steps: parsed.steps, coords });
  };
  await forEachJsonObjectLine(src, path, (r, line) => {
    objects += 1;
    if (isBatchLine(r)) {
      // custom_id names the page the way a run line's id or image_path does.
      batchLines += 1;
      const b = readBatchLine(r);
      firstCustomId ??= b.custom_id;
      if (!b.ok) {
        failed += 1;
        warnings.push(`line ${line}: custom_id "${b.custom_id}": ${b.why} — no answer for this page`);
        return;
      }
      const page = joinPage(ds, { id: b.custom_id, image_path: b.custom_id });
      if (page === undefined) {
        unknown += 1;
        warnings.push(`line ${line}: custom_id "${b.custom_id}" names no page`);
        return;
      }
      if (byPage.has(page)) {
        duplicates += 1;
        warnings.push(`line ${line}: second prediction for page ${ds.pages[page].id} ignored`);
        return;
      }
      if (b.finish_reason === 'length') truncated += 1;
      keep(page, line, BATCH_FIELD, b.content, undefined);
      return;
    }
    if ((r.id === undefined || r.id === null) && typeof r.image_path !== 'string') {
      malformed += 1;
      warnings.push(`line ${line}: no id or image_path`);
      return;
    }
    const page = joinPage(ds, r);
    if (page === undefined) {
      unknown += 1;
      warnings.push(`line ${line}: unknown page`);
      return;
    }
    if (byPage.has(page)) {
      duplicates += 1;
      warnings.push(`line ${line}: second prediction for page ${ds.pages[page].id} ignored`);
      return;
    }
    const field = BOX_FIELDS.find((f) => r[f] !== undefined && r[f] !== null);
    if (!field) {
      malformed += 1;
      warnings.push(`line ${line}: no boxes field (${BOX_FIELDS.join(', ')})`);
      return;
    }
    keep(page, line, field, r[field], r.coords === 'rel1000' || r.coords === 'abs' ? r.coords : undefined);
  }, bad, ctx);
  if (objects === 0) throw new InputError(`prediction ${file}: no JSON object lines (is it a gansulishuzhi run?)`);
  if (batchLines > 0 && byPage.size === 0) {
    if (unknown === 0) throw new InputError(`prediction ${file}: none of its ${batchLines} batch output lines has an answer (every request failed)`);
    throw new InputError(
      `prediction ${file}: none of its ${batchLines} batch custom_id values names a page of ${ds.root ? ds.root + '/' : ''}manifest.jsonl (first: "${firstCustomId}"); custom_id must hold ${CUSTOM_ID_FORMS}`,
    );
  }
  if (truncated > 0) warnings.push(`${truncated} of ${byPage.size} batch answers stopped at the token limit (finish_reason "length"): they may be cut short`);
  if (byPage.size === 0 && unknown > 0) {
    throw new InputError(`prediction ${file}: none of its ${unknown} lines names a page of ${ds.root ? ds.root + '/' : ''}manifest.jsonl — is it for another benchmark?`);
  }
  return {
    model,
    data: { file, byPage, format: batchLines > 0 ? 'batch' : 'run-lines' },
    warnings,
    counts: {
      malformed_lines: malformed,
      unknown_lines: unknown,
      duplicate_lines: duplicates,
      ...(batchLines > 0 ? { batch_lines: batchLines, failed_requests: failed, truncated_answers: truncated } : {}),
    },
  };
}

/** A run file, or a folder of them (e.g. runs/): one model per file, named by its stem. */
export async function loadGansuPredictions(ds: GansuDataset, input: PredictionInput, ctx?: RunContext): Promise<LoadedPredictions<GansuPredictions>[]> {
  const src = input.source;
  const path = normalizePath(input.path);
  const isFile = path !== '' && src.list().some((e) => e.path === path);
  if (isFile) return [await readRun(ds, src, path, input.name, ctx)];
  const files = filesUnder(src, path).filter((e) => e.path.toLowerCase().endsWith('.jsonl'));
  if (files.length === 0) throw new InputError(`prediction ${input.name}: no .jsonl run file`);
  const out: LoadedPredictions<GansuPredictions>[] = [];
  for (const f of files) out.push(await readRun(ds, src, f.path, stem(f.path), ctx));
  return out;
}
