/**
 * TABench T2R answers in the box dialects of vision-language models (shared/specs/vlm-boxes.md):
 * the `boxes` option's reading of one answer, the file's diagnosis (t2r/f1 under each plausible
 * reading, by the same matching and pooling as the score) and the per-line `coord_type` check.
 */
import { boxIoU, type Box } from '../../geometry/box';
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

/**
 * Per-answer work every reading of a file shares — the cleaned text, the dialect its markers name,
 * the spec parser's verdict — done once per line (the diagnosis reads a file several ways; a
 * 50,000-query file re-parsed per reading spent most of the diagnosis in JSON.parse). Pure
 * functions of the line's answer, keyed by the line object (lines are not changed once read).
 */
const textCache = new WeakMap<PredLine, string>();
const familyCache = new WeakMap<PredLine, BoxFamily | null>();
const specCache = new WeakMap<PredLine, T2rParse>();
export function textOf(line: PredLine): string {
  let t = textCache.get(line);
  if (t === undefined) textCache.set(line, (t = answerText(line.value)));
  return t;
}
function familyOf(line: PredLine): BoxFamily | null {
  let f = familyCache.get(line);
  if (f === undefined) familyCache.set(line, (f = detectFamily(textOf(line))));
  return f;
}
/** The spec parser's reading of the line's answer (what readT2r gives without qwen2vl_boxes). */
export function specOf(line: PredLine): T2rParse {
  let p = specCache.get(line);
  if (p === undefined) specCache.set(line, (p = parseT2r(line.value)));
  return p;
}

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
export function readT2rAs(family: BoxFamily, line: PredLine, space: Space, size: Size, options: Record<string, unknown>): DialectRead {
  const r = readAs(family, textOf(line), readContext(size, options), () => specOf(line).boxes);
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
  const unparseable = !r.found && boxes.length === 0 && specOf(line).unparseable;
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
  line: PredLine,
  space: Space,
  size: Size,
  options: Record<string, unknown>,
  specRead: () => DialectRead,
): DialectRead {
  if (choice === 'default') return specRead();
  if (choice === 'auto') {
    const f = familyOf(line);
    if (f === null) return specRead();
    return readT2rAs(f === 'qwen25vl' ? bbox2d : f, line, space, size, options);
  }
  return readT2rAs(choice, line, space, size, options);
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
    if (data.queries[i].task === 'T2R' && pi >= 0) texts.push(textOf(lines[pi]));
  }
  if (texts.length === 0) return null;
  return diagnoseBoxDialects(
    texts,
    't2r/f1',
    choice,
    (c, bbox2d, extra) => {
      const opts = { ...options, ...extra };
      return t2rF1(data, join, lines, average, iou, (q, line) => {
        const size = sizeOf(data.queries[q].image_path);
        return readT2rChoice(c, bbox2d, line, space, size, opts, () => specRead(line, size)).boxes;
      });
    },
    options,
  );
}

/**
 * T2R lines whose own `coord_type` their boxes contradict: a line saying rel1000 whose boxes reach
 * more GT — at least half of the query's — read as pixels, or the reverse. Evidence per line (IoU ≥
 * t against any GT box, compared in pixels), never used to score: the file is scored in the space
 * its first coord_type names, and the warning names the lines.
 */
export function contradictedLineSpaces(
  data: SpaceData,
  join: JoinResult,
  lines: readonly PredLine[],
  sizeOf: (imagePath: string) => Size,
  iou: number,
  specRead: (line: PredLine, size: Size) => DialectRead,
): string | null {
  const bad: { line: number; declared: Space; hd: number; ho: number; gt: number }[] = [];
  for (let i = 0; i < data.queries.length; i++) {
    const q = data.queries[i];
    const pi = join.predOf[i];
    if (q.task !== 'T2R' || pi < 0 || q.gtBoxes.length === 0) continue;
    const line = lines[pi];
    const size = sizeOf(q.image_path);
    if (!line.coord_type || !size) continue;
    const boxes = specRead(line, size).boxes;
    if (boxes.length === 0) continue;
    const toPx = (b: Box): Box => [(b[0] * size.width) / 1000, (b[1] * size.height) / 1000, (b[2] * size.width) / 1000, (b[3] * size.height) / 1000];
    const gt = data.space === 'abs' ? q.gtBoxes : q.gtBoxes.map(toPx);
    const asRel = boxes.map(toPx);
    const declared = line.coord_type === 'rel1000' ? asRel : boxes;
    const other = line.coord_type === 'rel1000' ? boxes : asRel;
    const hits = (bs: Box[]) => gt.filter((g) => bs.some((b) => boxIoU(g, b) >= iou)).length;
    const hd = hits(declared);
    const ho = hits(other);
    if (ho > hd && ho * 2 >= gt.length) bad.push({ line: line.line, declared: line.coord_type, hd, ho, gt: gt.length });
  }
  if (bad.length === 0) return null;
  bad.sort((a, b) => a.line - b.line);
  const say = (xs: typeof bad, declared: Space, fits: string) => {
    const one = xs.length === 1;
    const list = xs.slice(0, 20).map((b) => b.line).join(', ') + (xs.length > 20 ? ` and ${xs.length - 20} more` : '');
    const sum = (f: (b: (typeof bad)[number]) => number) => xs.reduce((n, b) => n + f(b), 0);
    return `${xs.length} T2R line${one ? ' declares' : 's declare'} coord_type "${declared}" but ${one ? 'its' : 'their'} boxes fit ${fits} (line${one ? '' : 's'} ${list}): as declared they reach ${sum((b) => b.hd)} of the ${sum((b) => b.gt)} GT boxes of ${one ? 'its query' : 'their queries'} at IoU ≥ ${iou}, as ${fits} ${sum((b) => b.ho)}`;
  };
  const rel = bad.filter((b) => b.declared === 'rel1000');
  const abs = bad.filter((b) => b.declared === 'abs');
  const parts = [rel.length ? say(rel, 'rel1000', 'pixels') : '', abs.length ? say(abs, 'abs', '0–1000 of the image') : ''].filter(Boolean);
  return `line coord_type: ${parts.join('; ')} — the file is scored in ${data.space} (its first coord_type, or --option coords), so these lines score as they are; correct their coord_type or their boxes`;
}
