/** Checks shared by benchmarks whose GT instances are axis-aligned boxes [x0, y0, x1, y1]. */
import { boxIoU } from '../geometry/box';
import { box as fmtBox, ratio } from './format';
import { findDuplicates } from './duplicates';
import { quote } from './text';
import { finding, type LintFinding } from './types';

/** Null for a box with positive width and height; else the box_degenerate sentence. */
export function degenerateBox(b: readonly number[]): string | null {
  if (b[2] > b[0] && b[3] > b[1]) return null;
  const which = [b[2] <= b[0] ? 'x2 ≤ x1' : '', b[3] <= b[1] ? 'y2 ≤ y1' : ''].filter(Boolean).join(' and ');
  return `box ${fmtBox(b)} has ${which}: area 0, so it scores IoU 0 with every prediction (corners are not swapped) — a certain miss`;
}

/** The four corners of a box, for the point-wise bounds check. */
export function corners(b: readonly number[]): number[] {
  return [b[0], b[1], b[2], b[1], b[2], b[3], b[0], b[3]];
}

/**
 * duplicate_instance over boxes: IoU ≥ 0.9 (and equal text when `texts` is given), on the later
 * box. `consequence` says what the protocol does with the pair.
 */
export function duplicateBoxes(
  caseId: string,
  boxes: readonly (readonly number[])[],
  texts: readonly (string | undefined)[] | null,
  consequence: string,
  out: LintFinding[],
  id: (i: number) => number = (i) => i,
): void {
  if (boxes.length < 2) return;
  const bounds = new Float64Array(4 * boxes.length);
  boxes.forEach((b, i) => bounds.set([b[0], b[1], b[2], b[3]], 4 * i));
  const area = (i: number) => Math.max(0, boxes[i][2] - boxes[i][0]) * Math.max(0, boxes[i][3] - boxes[i][1]);
  for (const d of findDuplicates(bounds, area, texts, (i, j) => boxIoU(boxes[i], boxes[j]))) {
    out.push(
      finding(
        caseId,
        id(d.later),
        'duplicate_instance',
        `IoU ${ratio(d.iou)} with instance ${id(d.earlier)}${texts ? ` (same text ${quote(texts[d.later] ?? '')})` : ''}: annotated twice; ${consequence}`,
      ),
    );
  }
}
