/**
 * Chronicles-OCR answers that come from an OpenAI-compatible batch (OpenAI Batch API, vLLM
 * `run_batch`, Anthropic Message Batches) rather than from `infer.py`: one line per (image, task),
 * joined to the GT by its `custom_id`. Each answer becomes the record `infer.py` would have
 * written: `{ answer, extract }`, with the extract the official extractor gives (infer.py runs the
 * same extractor at inference time; its up-to-3 retries of the model cannot be replayed here).
 *
 * `custom_id` must hold the image path (as `image_path` in the GT, `data/` prefix allowed) and the
 * task, joined by `#`, `|`, `::` or a tab, in either order — `images/甲骨文/ob_001.png#spotting`
 * (the case id Benchlens writes), `字符检测|images/…` — or a JSON object `{image_path, task}`.
 * Tasks: classification / parsing / spotting / recognition (any case) or the file keys 字体分类 /
 * 字符提取 / 字符检测 / 单字识别. Recognition asks about one character (drawn in red on the image):
 * its index in the GT `spotting` list may follow the task (`…#recognition#3`, or `target_index` in
 * the JSON form) and gives `gt_char`; without it (`<image_path>#recognition`, `…|recognition`) the
 * answer is judged against the target infer.py picks, recomputed from the GT as infer.py would
 * (recognitionTarget.ts; option recognition_target=stored gives the official no_gt instead).
 */
import { TASK_KEYS, type TaskId } from './constants';
import { EXTRACTORS } from './extract';
import type { ChroniclesDataset, GtRow } from './gt';

export const CUSTOM_ID_FORMS =
  'the image path and the task, e.g. "images/甲骨文/ob_001.png#spotting" (separator # | :: or tab; task classification, parsing, spotting, recognition or 字体分类 字符提取 字符检测 单字识别; recognition also takes the target character\'s index in spotting: "…#recognition#3"), or a JSON object {image_path, task, target_index}';

const TASK_BY_NAME = new Map<string, TaskId>();
for (const [id, key] of Object.entries(TASK_KEYS) as [TaskId, string][]) {
  TASK_BY_NAME.set(id, id);
  TASK_BY_NAME.set(key, id);
}

export interface BatchKey {
  row: GtRow;
  task: TaskId;
  target?: number;
}

function rowFor(ds: ChroniclesDataset, path: string): GtRow | undefined {
  const p = path.trim().replace(/^\.\//, '');
  return ds.byPath.get(p) ?? (p.startsWith('data/') ? ds.byPath.get(p.slice(5)) : undefined);
}

function taskOf(s: string): TaskId | undefined {
  const t = s.trim();
  return TASK_BY_NAME.get(t) ?? TASK_BY_NAME.get(t.toLowerCase());
}

/** What a custom_id names, or why it names nothing. */
export function resolveChroniclesCustomId(ds: ChroniclesDataset, cid: string): BatchKey | string {
  if (cid.trim().startsWith('{')) {
    let o: unknown;
    try {
      o = JSON.parse(cid);
    } catch {
      return 'is not valid JSON';
    }
    const r = (typeof o === 'object' && o !== null ? o : {}) as Record<string, unknown>;
    const row = typeof r.image_path === 'string' ? rowFor(ds, r.image_path) : undefined;
    const task = typeof r.task === 'string' ? taskOf(r.task) : undefined;
    if (!row || !task) return 'names no (image_path, task) of the ground truth';
    const target = Number.isInteger(r.target_index) ? (r.target_index as number) : undefined;
    return { row, task, target };
  }
  const parts = cid.split(/::|#|\||\t/);
  if (parts.length < 2) return 'holds no task';
  // The task is the first or the last part (recognition may be followed by its target index).
  const tail = parts.length >= 3 && /^\d+$/.test(parts[parts.length - 1].trim()) ? Number(parts[parts.length - 1]) : undefined;
  const body = tail === undefined ? parts : parts.slice(0, -1);
  const candidates: [TaskId | undefined, string[]][] = [
    [taskOf(body[body.length - 1]), body.slice(0, -1)],
    [taskOf(body[0]), body.slice(1)],
  ];
  for (const [task, rest] of candidates) {
    if (!task) continue;
    // The path may itself hold a separator character: rejoin it with the one the id used.
    const sep = cid.includes('::') ? '::' : cid.includes('#') ? '#' : cid.includes('|') ? '|' : '\t';
    const row = rowFor(ds, rest.join(sep));
    if (!row) return `names image "${rest.join(sep)}", which is not in the ground truth`;
    if (tail !== undefined && task !== 'recognition') return `ends in ${tail}, which only a recognition id takes`;
    return { row, task, target: tail };
  }
  return 'holds no task name';
}

/** The record infer.py would have written for this answer. */
export function batchRecord(key: BatchKey, answer: string): Record<string, unknown> {
  const ex = EXTRACTORS[key.task](answer);
  const rec: Record<string, unknown> = { answer, source: 'batch' };
  if (ex.extract !== null) rec.extract = ex.extract;
  if (key.task === 'recognition' && key.target !== undefined) {
    // The id names its target: an index with no readable GT character leaves it without gt_char (no_gt).
    rec.target_index = key.target;
    const ch = key.row.chars.find((c) => c.index === key.target);
    if (ch) {
      rec.gt_char = ch.char;
      rec.target_bbox_xyxy = ch.bbox;
    }
  }
  return rec;
}
