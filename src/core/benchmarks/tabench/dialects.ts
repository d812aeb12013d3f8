/**
 * TABench T2R answers in the box dialects of vision-language models (shared/specs/vlm-boxes.md):
 * the `boxes` option's reading of one answer, the file's diagnosis (t2r/f1 under each plausible
 * reading, by the same matching and pooling as the score) and the per-line `coord_type` check.
 */
import type { Box } from '../../geometry/box';
import { answerText, detectFamily, readAs, readContext, unitToPixels, type BoxesChoice, type BoxFamily } from '../../text/vlmBoxes/families';
import { diagnoseBoxDialects, type BoxDialectDiagnosis } from '../../text/vlmBoxes/diagnose';
import type { Protocol } from '../../model';
import type { Space, SpaceData } from './dataset';
import { greedyMatch } from './match';
import { perQueryPRF, SliceStats, type T2rAverage } from './metrics';
import { orderCorners, parseT2r, type T2rParse } from './parse';
import type { JoinResult, PredLine } from './predictions';

type Size = { width: number; height: number } | null;
export type DialectRead = T2rParse & { noSize?: boolean };

/** The boxes choice of a protocol (absent: the spec's reading). */
export function boxesChoice(p: Protocol): BoxesChoice {
  const v = p.options.boxes;
  return typeof v === 'string' ? (v as BoxesChoice) : 'default';
}

/**
 * One T2R answer read as `family`, in the scored space: fractions of the image × 1000 (rel1000) or
 * × the image size (abs; no size → no boxes, `noSize`). Corners are put in order as the spec's
 * parser does; an answer with neither the family's syntax nor a box the spec's parser finds keeps
 * that parser's verdict (unparseable, or a valid empty answer).
 */
export function readT2rAs(family: BoxFamily, value: unknown, space: Space, size: Size, options: Record<string, unknown>): DialectRead {
  const text = answerText(value);
  let spec: T2rParse | undefined;
  const specParse = () => (spec ??= parseT2r(value));
  const r = readAs(family, text, readContext(size, options), () => specParse().boxes);
  const rule: T2rParse['rule'] = r.found ? family : `${family}-plain`;
  if (r.needsSize) return { boxes: [], rule, unparseable: false, swapped: [], steps: [], noSize: true };
  let boxes: Box[];
  if (space === 'rel1000') boxes = r.boxes.map((b) => [b[0] * 1000, b[1] * 1000, b[2] * 1000, b[3] * 1000]);
  else if (size) boxes = r.boxes.map((b) => unitToPixels(b, size.width, size.height));
  else return { boxes: [], rule, unparseable: false, swapped: [], steps: [], noSize: r.boxes.length > 0 };
  const swapped: number[] = [];
  boxes = boxes.map((b, i) => {
    const o = orderCorners(b);
    if (o !== b) swapped.push(i);
    return o;
  });
  const unparseable = !r.found && boxes.length === 0 && specParse().unparseable;
  return { boxes, rule: unparseable ? 'unparseable' : rule, unparseable, swapped, steps: [] };
}

/**
 * The reading `choice` gives one answer: `default` is `specRead` (the spec's parser, with
 * qwen2vl_boxes when set); `auto` reads each answer in the dialect its markers name (`bbox_2d`
 * as the file's fit chose), and an answer without markers as the spec does.
 */
export function readT2rChoice(
  choice: BoxesChoice,
  bbox2d: BoxFamily,
  value: unknown,
  space: Space,
  size: Size,
  options: Record<string, unknown>,
  specRead: () => DialectRead,
): DialectRead {
  if (choice === 'default') return specRead();
  if (choice === 'auto') {
    const f = detectFamily(answerText(value));
    if (f === null) return specRead();
    return readT2rAs(f === 'qwen25vl' ? bbox2d : f, value, space, size, options);
  }
  return readT2rAs(choice, value, space, size, options);
}

/** t2r/f1 of the whole file with every answer read by `read` (the score's matching and pooling). */
function t2rF1(data: SpaceData, join: JoinResult, lines: readonly PredLine[], average: T2rAverage, iou: number, read: (q: number, line: PredLine) => Box[]): number {
  const s = new SliceStats();
  for (let i = 0; i < data.queries.length; i++) {
    const q = data.queries[i];
    if (q.task !== 'T2R') continue;
    const pi = join.predOf[i];
    const boxes = pi >= 0 ? read(i, lines[pi]) : [];
    const tp = greedyMatch(q.gtBoxes, boxes, (v) => v >= iou).pairs.length;
    s.addT2r({ tp, fp: boxes.length - tp, fn: q.gtBoxes.length - tp, ...perQueryPRF(tp, q.gtBoxes.length, boxes.length), qsr: [false, false, false] });
  }
  return s.metrics(average).find(([k]) => k === 't2r/f1')![1];
}

/** The file's diagnosis (see text/vlmBoxes/diagnose.ts), or null when there is nothing to say. */
export function diagnoseTabenchFile(
  data: SpaceData,
  join: JoinResult,
  lines: readonly PredLine[],
  space: Space,
  sizeOf: (imagePath: string) => Size,
  options: Record<string, unknown>,
  average: T2rAverage,
  iou: number,
  choice: BoxesChoice,
  specRead: (line: PredLine, size: Size) => DialectRead,
): BoxDialectDiagnosis | null {
  const texts: string[] = [];
  for (let i = 0; i < data.queries.length; i++) {
    const pi = join.predOf[i];
    if (data.queries[i].task === 'T2R' && pi >= 0) texts.push(answerText(lines[pi].value));
  }
  if (texts.length === 0) return null;
  return diagnoseBoxDialects(texts, 't2r/f1', choice, (c, bbox2d) =>
    t2rF1(data, join, lines, average, iou, (q, line) => {
      const size = sizeOf(data.queries[q].image_path);
      return readT2rChoice(c, bbox2d, line.value, space, size, options, () => specRead(line, size)).boxes;
    }),
  );
}
