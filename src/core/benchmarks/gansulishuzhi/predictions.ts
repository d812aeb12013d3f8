/**
 * gansulishuzhi runs: one JSON object per line with the page `id` (or `image_path`) and the
 * boxes in the first present of the output fields. Lines join pages by id, then exact
 * image_path, then file name; the first line for a page wins.
 */
import type { Box } from '../../geometry/box';
import { basename, filesUnder, normalizePath, stem, type FileSource } from '../../io/fileSource';
import { forEachJsonObjectLine } from '../../io/text';
import { InputError, type LoadedPredictions, type PredictionInput, type RunContext } from '../../model';
import type { GansuDataset } from './dataset';
import { parseFigureAnswer, type FigureParse } from './parse';

export const BOX_FIELDS = ['pred_bboxes', 'bboxes', 'boxes', 'prediction', 'output', 'response'] as const;

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
  const bad = (line: number, why: string) => {
    malformed += 1;
    warnings.push(`line ${line}: ${why}`);
  };
  await forEachJsonObjectLine(src, path, (r, line) => {
    objects += 1;
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
    const parsed = parseFigureAnswer(r[field]);
    if (parsed.unparseable) warnings.push(`line ${line}: unparseable_output`);
    byPage.set(page, {
      line,
      field,
      raw: r[field],
      boxes: parsed.boxes,
      rule: parsed.rule,
      unparseable: parsed.unparseable,
      steps: parsed.steps,
      coords: r.coords === 'rel1000' || r.coords === 'abs' ? r.coords : undefined,
    });
  }, bad, ctx);
  if (objects === 0) throw new InputError(`prediction ${file}: no JSON object lines (is it a gansulishuzhi run?)`);
  if (byPage.size === 0 && unknown > 0) {
    throw new InputError(`prediction ${file}: none of its ${unknown} lines names a page of ${ds.root ? ds.root + '/' : ''}manifest.jsonl — is it for another benchmark?`);
  }
  return {
    model,
    data: { file, byPage },
    warnings,
    counts: { malformed_lines: malformed, unknown_lines: unknown, duplicate_lines: duplicates },
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
