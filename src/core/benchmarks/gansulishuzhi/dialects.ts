/**
 * gansulishuzhi answers in the box dialects of vision-language models (shared/specs/vlm-boxes.md):
 * the `boxes` option's reading of a page's answer, the run's diagnosis (iou0.5/f1 under each
 * plausible reading, by the score's own matching) and the check of each line's own `coords`.
 */
import type { Box } from '../../geometry/box';
import { boxIoU } from '../../geometry/box';
import { usableSize } from '../../geometry/coordSpace';
import { rel1000ToPixels } from '../../text/groundingTokens';
import { answerText, detectFamily, readAs, readContext, unitToPixels, type BoxesChoice, type BoxFamily } from '../../text/vlmBoxes/families';
import { diagnoseBoxDialects, type BoxDialectDiagnosis } from '../../text/vlmBoxes/diagnose';
import { greedyMatch } from '../tabench/match';
import type { GansuDataset, Page } from './dataset';
import type { GansuPredictions, PagePrediction } from './predictions';

export interface DialectPixels {
  /** Boxes in 0–1000 of the page (what the case shows as `box_rel1000`), and in pixels. */
  raw: Box[];
  boxes: Box[];
  noSize: boolean;
  family: BoxFamily;
  /** The family's own syntax was found (else the spec parser's boxes were taken in its space). */
  found: boolean;
}

export function pageSize(page: Page): { width: number; height: number } | null {
  return page.size ? usableSize({ width: page.size[0], height: page.size[1] }) : null;
}

/**
 * A page's answer read as `family`: the dialect's boxes, or the spec parser's boxes taken in the
 * family's order and space. The family says the space, so a line's own `coords` does not apply.
 * Corners are kept as read (the spec does not swap them); y-first dialects are turned x-first.
 */
export function readPageAs(family: BoxFamily, page: Page, p: PagePrediction, options: Record<string, unknown>): DialectPixels {
  const size = pageSize(page);
  const r = readAs(family, answerText(p.raw), readContext(size, options), () => p.boxes);
  const raw = r.boxes.map((b): Box => [b[0] * 1000, b[1] * 1000, b[2] * 1000, b[3] * 1000]);
  if (r.needsSize) return { raw: p.boxes.length ? p.boxes.map((b) => [...b] as Box) : raw, boxes: [], noSize: true, family, found: r.found };
  if (!size) return { raw, boxes: [], noSize: raw.length > 0, family, found: r.found };
  return { raw, boxes: r.boxes.map((b) => unitToPixels(b, size.width, size.height)), noSize: false, family, found: r.found };
}

/** The family `choice` reads this answer in, or null for the spec's reading. */
export function familyFor(choice: BoxesChoice, bbox2d: BoxFamily, raw: unknown): BoxFamily | null {
  if (choice === 'default') return null;
  if (choice !== 'auto') return choice;
  const f = detectFamily(answerText(raw));
  return f === 'qwen25vl' ? bbox2d : f;
}

/** iou0.5/f1 of the run with each page's boxes from `read` (greedy matching once over IoU > 0; pooled). */
function f1At05(ds: GansuDataset, preds: GansuPredictions, read: (page: Page, p: PagePrediction) => { boxes: Box[]; count: number }): number {
  let tp = 0;
  let nPred = 0;
  let nGt = 0;
  for (let i = 0; i < ds.pages.length; i++) {
    const page = ds.pages[i];
    nGt += page.gt.length;
    const p = preds.byPage.get(i);
    if (!p) continue;
    const { boxes, count } = read(page, p);
    nPred += count;
    for (const pair of greedyMatch(page.gt, boxes, (v) => v > 0).pairs) if (pair.iou >= 0.5) tp += 1;
  }
  const precision = nPred > 0 ? tp / nPred : 0;
  const recall = nGt > 0 ? tp / nGt : 0;
  return precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
}

export function diagnoseGansuRun(
  ds: GansuDataset,
  preds: GansuPredictions,
  options: Record<string, unknown>,
  choice: BoxesChoice,
  specPixels: (page: Page, p: PagePrediction) => { boxes: Box[]; raw: Box[] },
): BoxDialectDiagnosis | null {
  const texts = [...preds.byPage.values()].map((p) => answerText(p.raw));
  if (texts.length === 0) return null;
  return diagnoseBoxDialects(
    texts,
    'iou0.5/f1',
    choice,
    (c, bbox2d, extra) => {
      const opts = { ...options, ...extra };
      return f1At05(ds, preds, (page, p) => {
        const f = familyFor(c, bbox2d, p.raw);
        if (f === null) {
          const s = specPixels(page, p);
          return { boxes: s.boxes, count: s.raw.length };
        }
        const d = readPageAs(f, page, p, opts);
        return { boxes: d.boxes, count: d.raw.length };
      });
    },
    options,
  );
}

/**
 * Lines whose own `coords` their boxes contradict: declared rel1000 but reaching more GT — at least
 * half of the page's — as pixels, or the reverse. Evidence over the line's page (IoU ≥ 0.5 against any GT box), never used to
 * score: the line's `coords` still decides, as the spec says, and the warning names the lines.
 */
export function contradictedLineCoords(ds: GansuDataset, preds: GansuPredictions): string | null {
  const bad: { line: number; declared: 'abs' | 'rel1000'; hitsDeclared: number; hitsOther: number; gt: number }[] = [];
  for (const [i, p] of preds.byPage) {
    if (!p.coords || p.boxes.length === 0) continue;
    const page = ds.pages[i];
    const size = pageSize(page);
    if (!size || page.gt.length === 0) continue;
    const asRel = p.boxes.map((b) => rel1000ToPixels(b, size.width, size.height));
    const declared = p.coords === 'rel1000' ? asRel : p.boxes;
    const other = p.coords === 'rel1000' ? p.boxes : asRel;
    const hits = (boxes: Box[]) => page.gt.filter((g) => boxes.some((b) => boxIoU(g, b) >= 0.5)).length;
    const hd = hits(declared);
    const ho = hits(other);
    // The other reading must reach more GT, and at least half of the page's: a clear misfit, not noise.
    if (ho > hd && ho * 2 >= page.gt.length) bad.push({ line: p.line, declared: p.coords, hitsDeclared: hd, hitsOther: ho, gt: page.gt.length });
  }
  if (bad.length === 0) return null;
  bad.sort((a, b) => a.line - b.line);
  const rel = bad.filter((b) => b.declared === 'rel1000');
  const abs = bad.filter((b) => b.declared === 'abs');
  const say = (xs: typeof bad, declared: string, fits: string) => {
    const gt = xs.reduce((s, b) => s + b.gt, 0);
    const declaredHits = xs.reduce((s, b) => s + b.hitsDeclared, 0);
    const other = xs.reduce((s, b) => s + b.hitsOther, 0);
    const lines = xs.slice(0, 20).map((b) => b.line).join(', ') + (xs.length > 20 ? ` and ${xs.length - 20} more` : '');
    return `${xs.length} line${xs.length === 1 ? ' declares' : 's declare'} "coords": "${declared}" but ${xs.length === 1 ? 'its' : 'their'} boxes fit ${fits} (line${xs.length === 1 ? '' : 's'} ${lines}): as declared they reach ${declaredHits} of the ${gt} GT boxes on ${xs.length === 1 ? 'its page' : 'their pages'} at IoU ≥ 0.5, as ${fits} ${other}`;
  };
  const parts = [rel.length ? say(rel, 'rel1000', 'pixels') : '', abs.length ? say(abs, 'abs', '0–1000 of the page') : ''].filter(Boolean);
  return `line coords: ${parts.join('; ')} — a line's own "coords" decides how it is scored (gansulishuzhi.md), so they score as declared; correct or drop the lines' "coords"`;
}
