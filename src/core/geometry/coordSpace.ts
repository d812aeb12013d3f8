/**
 * Is a model's box file in the coordinate space it is scored in? VLMs answer either in pixels or
 * in 0–1000 of the image (Qwen2-VL, Qwen3-VL, GLM-4V, InternVL), and a file read in the wrong one
 * scores near 0 without a word. This looks at what the numbers say — never changes a score:
 * - boxes read as pixels that all lie within 0–1000 on images larger than 1000 px;
 * - boxes read as 0–1000 with coordinates beyond 1000 (which that space cannot hold);
 * - and, for both, how many GT boxes the boxes reach (IoU ≥ t) read as scored and read in the
 *   other space, which is what makes a fix unambiguous.
 * The benchmark says it in its warnings and names its own option.
 */
import { boxIoU, type Box } from './box';

export interface SpaceSample {
  /** GT boxes, in the space the boxes are compared in. */
  gt: readonly Box[];
  /** Boxes as the file wrote them. */
  raw: readonly Box[];
  /** The same boxes as scored, and as they would be in the other reading (null: no image size). */
  scored: readonly Box[];
  alt: readonly Box[] | null;
  /** The image's size, or null when unknown. */
  size: { width: number; height: number } | null;
}

export interface SpaceFindings {
  /** Cases with at least one box, and their boxes. */
  cases: number;
  boxes: number;
  /** Boxes with every coordinate within [0, 1000]; boxes with a coordinate beyond 1000. */
  within1000: number;
  beyond1000: number;
  /** Cases with boxes on an image wider or taller than 1000 px. */
  onLargerImages: number;
  /** GT boxes of cases with boxes that reach past 1000 (a pixel-space answer would too). */
  gtBeyond1000: number;
  /** Cases with boxes whose image size is unknown (no other reading can be tried). */
  unsized: number;
  /** Over the cases with a known size: GT boxes, and how many some box reaches at IoU ≥ t. */
  gtCompared: number;
  hitsScored: number;
  hitsAlt: number;
}

/** A usable image size: two finite numbers > 0, else null. */
export function usableSize(s: { width: number; height: number } | null | undefined): { width: number; height: number } | null {
  return s && Number.isFinite(s.width) && Number.isFinite(s.height) && s.width > 0 && s.height > 0 ? s : null;
}

/** GT boxes some box reaches at IoU ≥ t (not a one-to-one matching: evidence, not a score). */
function hits(gt: readonly Box[], boxes: readonly Box[], t: number): number {
  let n = 0;
  for (const g of gt) if (boxes.some((b) => boxIoU(g, b) >= t)) n += 1;
  return n;
}

export function inspectSpace(samples: readonly SpaceSample[], t: number): SpaceFindings {
  const f: SpaceFindings = { cases: 0, boxes: 0, within1000: 0, beyond1000: 0, onLargerImages: 0, gtBeyond1000: 0, unsized: 0, gtCompared: 0, hitsScored: 0, hitsAlt: 0 };
  for (const s of samples) {
    if (s.raw.length === 0) continue;
    f.cases += 1;
    f.boxes += s.raw.length;
    for (const b of s.raw) {
      if (b.every((v) => v >= 0 && v <= 1000)) f.within1000 += 1;
      if (b.some((v) => v > 1000)) f.beyond1000 += 1;
    }
    for (const g of s.gt) if (g.some((v) => v > 1000)) f.gtBeyond1000 += 1;
    const size = usableSize(s.size);
    if (!size) {
      f.unsized += 1;
      continue;
    }
    if (size.width > 1000 || size.height > 1000) f.onLargerImages += 1;
    if (s.alt) {
      f.gtCompared += s.gt.length;
      f.hitsScored += hits(s.gt, s.scored, t);
      f.hitsAlt += hits(s.gt, s.alt, t);
    }
  }
  return f;
}

/**
 * The warning for boxes read as pixels, or null when nothing is off. `fix` names the option that
 * reads them as 0–1000; it is offered as the fix only when the other reading reaches more GT.
 */
export function pixelReadingWarning(f: SpaceFindings, what: string, t: number, fix: string): string | null {
  if (f.boxes === 0 || f.within1000 !== f.boxes || f.onLargerImages === 0) return null;
  const counts = `read as 0–1000 of the image they reach ${f.hitsAlt} of ${f.gtCompared} GT boxes at IoU ≥ ${t}, read as pixels (as scored) ${f.hitsScored}`;
  const head = `coordinate space: all ${f.boxes} ${what} lie within 0–1000 although ${f.onLargerImages} of their ${f.cases} cases are on images larger than 1000 px; ${counts}`;
  if (f.hitsAlt > f.hitsScored) return `${head} — they look like rel1000 boxes given as absolute: ${fix}`;
  if (f.gtBeyond1000 > 0) return `${head}, and ${f.gtBeyond1000} GT boxes reach past 1000 — if the model answered in 0–1000 space, ${fix}`;
  return null;
}

/**
 * The warning for boxes read as 0–1000 that hold coordinates beyond 1000, or null. A model
 * answering in 0–1000 overshoots now and then (1003), so a few such boxes are said only when the
 * pixel reading reaches more GT; otherwise it takes 10 % of the boxes (and at least 2).
 */
export function rel1000ReadingWarning(f: SpaceFindings, what: string, t: number, fix: string | null): string | null {
  if (f.beyond1000 === 0) return null;
  if (f.hitsAlt <= f.hitsScored && (f.beyond1000 < 2 || f.beyond1000 < 0.1 * f.boxes)) return null;
  const head = `coordinate space: ${f.beyond1000} of ${f.boxes} ${what} read as rel1000 have coordinates beyond 1000, which that space cannot hold; read as pixels they reach ${f.hitsAlt} of ${f.gtCompared} GT boxes at IoU ≥ ${t}, read as rel1000 (as scored) ${f.hitsScored}`;
  if (f.hitsAlt > f.hitsScored) return `${head} — they look like absolute boxes given as rel1000${fix ? `: ${fix}` : ''}`;
  return head;
}
