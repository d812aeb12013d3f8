/**
 * GT corrections for TABench and the export of the corrected benchmark files. Corrections are
 * made on the drawn (pixel) boxes; they are written to both spaces: abs as given, rel1000 as
 * `round(x · 1000 / w)` like the released file. Untouched lines are exported byte for byte.
 */
import type { Box } from '../../geometry/box';
import { basename } from '../../io/fileSource';
import type { GtCorrection } from '../../model';
import type { Query, Space, SpaceData, TabenchDataset } from './dataset';
import { isBox } from './parse';

type Size = { width: number; height: number } | null | undefined;

function fromPixels(b: Box, space: Space, size: Size): Box | null {
  if (space === 'abs') return b;
  if (!size) return null;
  return [Math.round((b[0] * 1000) / size.width), Math.round((b[1] * 1000) / size.height), Math.round((b[2] * 1000) / size.width), Math.round((b[3] * 1000) / size.height)];
}

interface Edited {
  query: Query | null;
}

export function applyTabenchCorrections(ds: TabenchDataset, corrections: readonly GtCorrection[]): TabenchDataset {
  if (corrections.length === 0) return ds;
  const spaces: TabenchDataset['spaces'] = {};
  for (const [space, data] of Object.entries(ds.spaces) as [Space, SpaceData][]) {
    const edited = new Map<number, Edited>();
    for (const c of corrections) {
      const idx = data.byId.get(c.case_id);
      if (idx === undefined) continue;
      const cur = edited.get(idx)?.query ?? (edited.has(idx) ? null : cloneQuery(data.queries[idx]));
      if (!cur) continue; // deleted already
      edited.set(idx, { query: applyOne(cur, c, space, ds.imageSizes.get(cur.image_path)) });
    }
    for (const e of edited.values()) if (e.query) dropDeletedBoxes(e.query);
    const queries: Query[] = [];
    const byId = new Map<string, number>();
    const byImageQuestion = new Map<string, number>();
    data.queries.forEach((q, i) => {
      const e = edited.get(i);
      const nq = e ? e.query : q;
      if (!nq) return;
      byId.set(nq.id, queries.length);
      const k = `${nq.image_path}\u0000${nq.question}`;
      if (!byImageQuestion.has(k)) byImageQuestion.set(k, queries.length);
      queries.push(nq);
    });
    const byLine = new Map(data.edited);
    for (const [i, e] of edited) byLine.set(data.queries[i].line, e.query);
    spaces[space] = { ...data, queries, byId, byImageQuestion, edited: byLine };
  }
  const main = (spaces.abs ?? spaces.rel1000)!;
  return { ...ds, spaces, info: { ...ds.info, cases: main.queries.length } };
}

function cloneQuery(q: Query): Query {
  return { ...q, gtBoxes: q.gtBoxes.map((b) => [...b] as Box), gtTexts: [...q.gtTexts], queryBox: q.queryBox ? ([...q.queryBox] as Box) : undefined };
}

function applyOne(q: Query, c: GtCorrection, space: Space, size: Size): Query | null {
  const box = c.shape?.type === 'box' ? fromPixels(c.shape.box, space, size) : null;
  if (q.task === 'R2T') {
    // One GT per R2T query: deleting it drops the query; the box is the region asked about.
    if (c.deleted) return null;
    if (c.text !== undefined) q.gtText = c.text;
    // The question keeps its text here: prediction lines join on it. The export rewrites it.
    if (box) q.queryBox = box;
    return q;
  }
  if (c.gt_id === null) {
    if (box && !c.deleted) {
      q.gtBoxes.push(box);
      q.gtTexts.push(c.text ?? q.gtTexts[0] ?? '');
    }
    return q;
  }
  if (c.gt_id < 0 || c.gt_id >= q.gtBoxes.length) return q;
  if (c.deleted) {
    // Keep indices stable for later corrections of the same case: mark, then drop at the end.
    q.gtBoxes[c.gt_id] = [NaN, NaN, NaN, NaN];
    return q;
  } else {
    if (box) q.gtBoxes[c.gt_id] = box;
    if (c.text !== undefined) q.gtTexts[c.gt_id] = c.text;
  }
  return q;
}

function boxText(b: readonly number[]): string {
  return `[${b.join(', ')}]`;
}

function dropDeletedBoxes(q: Query): void {
  if (q.task !== 'T2R') return;
  const keep = q.gtBoxes.map((b) => !Number.isNaN(b[0]));
  q.gtBoxes = q.gtBoxes.filter((_, i) => keep[i]);
  q.gtTexts = q.gtTexts.filter((_, i) => keep[i]);
}

/** The benchmark files with the corrections written in: path (relative to the root) → text. */
export function exportTabenchGroundTruth(ds: TabenchDataset): Record<string, string> {
  const out: Record<string, string> = {};
  for (const data of Object.values(ds.spaces)) {
    const edited = data.edited ?? new Map<number, Query | null>();
    const lines: string[] = [];
    data.rawLines.forEach((raw, i) => {
      const lineNo = i + 1;
      if (!edited.has(lineNo)) {
        lines.push(raw);
        return;
      }
      const q = edited.get(lineNo);
      if (!q) return; // deleted query
      const o = JSON.parse(raw) as Record<string, unknown>;
      if (q.task === 'R2T') {
        o.GT = q.gtText;
        o.text = q.gtText;
        if (q.queryBox) {
          // The question names the region ("What is the text at location [x1, y1, x2, y2]?").
          if (isBox(o.bbox) && typeof o.question === 'string') o.question = o.question.replace(boxText(o.bbox), boxText(q.queryBox));
          o.bbox = q.queryBox;
        }
      } else {
        o.bbox = q.gtBoxes;
        const gts = q.gtBoxes.map((b, k) => ({ bbox: b, text: q.gtTexts[k] }));
        o.GT = gts.length === 1 ? gts[0] : gts;
      }
      lines.push(JSON.stringify(o));
    });
    out[basename(data.file)] = lines.join('\n') + '\n';
  }
  return out;
}
