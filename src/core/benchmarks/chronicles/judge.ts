/**
 * The official per-task judges (judges/*.py, utils/unk.py), reproduced exactly, including the
 * order of normalisation in Parsing (punctuation first, so `[UNK]` survives as `UNK`).
 */
import { levenshteinCodes } from '../../text/levenshtein';
import { IOU_THRESHOLD } from './constants';
import { isPlainObject, pyFloat, pyStrip, pyStripChars, pyText, pyTruthy } from './py';

// ---------------------------------------------------------------- UNK (utils/unk.py)

const UNK_BLOCKS = new Set(['\u25a1', '\u25a0', '\u25a2', '\u25fb', '\u25fc']);
const UNK_TOKENS = new Set(['[unk]', '<unk>', 'unk']);
const UNK_STRIP = /\[UNK\]|<UNK>|[\u25a1\u25a0\u25a2\u25fb\u25fc]/gi;

/** `is_unk_char`: empty, [UNK] / <UNK> / UNK in any case, or only □ ■ ▢ ◻ ◼. */
export function isUnkChar(ch: string | null | undefined): boolean {
  if (!ch) return true;
  const s = pyStrip(ch);
  if (!s) return true;
  if (s.length <= 5 && UNK_TOKENS.has(s.toLowerCase())) return true;
  for (const c of s) if (!UNK_BLOCKS.has(c)) return false;
  return true;
}

export function removeUnk(text: string): string {
  return text ? text.replace(UNK_STRIP, '') : '';
}

// ---------------------------------------------------------------- Parsing (judges/_text.py)

const PUNCT = new Set(
  '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~' +
    '，。、；：「」『』（）【】〔〕〈〉《》' +
    '！？…—–·．“”‘’「」『』〝〞' +
    '￥％＃＆＊＠／＼｜＋－＝＿' +
    '～｀＾',
);

export function normalizeText(text: string): string {
  if (!text) return '';
  return text
    .split('\\n')
    .join('')
    .split('\\\n')
    .join('')
    .replace(/[ \u3000\t\r\n]/g, '');
}

/** `normalize_for_parsing`: whitespace, then punctuation (brackets included). */
export function normalizeForParsing(text: string): string {
  let out = '';
  for (const c of normalizeText(text)) if (!PUNCT.has(c)) out += c;
  return out;
}

/** `x or ""` fed to str methods: a truthy non-string raises in the official code (a judge error). */
function textOrThrow(v: unknown): string {
  if (!pyTruthy(v)) return '';
  if (typeof v === 'string') return v;
  throw new Error(`'${pyTypeName(v)}' object has no attribute 'replace'`);
}

export function pyTypeName(v: unknown): string {
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return 'list';
  if (v === null || v === undefined) return 'NoneType';
  return typeof v === 'string' ? 'str' : 'dict';
}

export interface ParsingJudgement {
  score: number;
  edit_distance: number;
  len_pred: number;
  len_gt: number;
  gt_norm: string;
  pred_norm: string;
}

/** 1 − NED over code points, with the official normalisation (GT `annotation` vs `extracted_text`). */
export function judgeParsing(annotation: unknown, extracted: unknown): ParsingJudgement {
  const gtNorm = removeUnk(normalizeForParsing(textOrThrow(annotation)));
  const predNorm = removeUnk(normalizeForParsing(textOrThrow(extracted)));
  const g = [...gtNorm].map((c) => c.codePointAt(0)!);
  const p = [...predNorm].map((c) => c.codePointAt(0)!);
  const base = { gt_norm: gtNorm, pred_norm: predNorm, len_gt: g.length, len_pred: p.length };
  if (g.length === 0 && p.length === 0) return { ...base, score: 1, edit_distance: 0 };
  if (g.length === 0) return { ...base, score: 0, edit_distance: p.length };
  const ed = gtNorm === predNorm ? 0 : levenshteinCodes(p, g);
  return { ...base, score: Math.max(0, 1 - ed / Math.max(p.length, g.length)), edit_distance: ed };
}

// ---------------------------------------------------------------- Classification, Recognition

export function judgeClassification(fontType: unknown, category: unknown): { score: number; gt: string; pred: string } {
  const gt = pyText(fontType);
  const pred = pyText(category);
  return { score: gt && pred && gt === pred ? 1 : 0, gt, pred };
}

const REC_PUNCT = '。.；;，,"\'“”‘’《》<>()（）【】[]{}!?！？:：`·～~';
/** What recognition compares: stripped of spaces and of the punctuation listed above. */
export const recNorm = (s: string) => pyStripChars(pyStrip(s), REC_PUNCT);

/** Exact match against the `gt_char` the inference stored beside the answer. */
export function judgeRecognition(gtChar: unknown, predChar: unknown): { score: number; gt: string; pred: string; error?: string } {
  const pred = pyText(predChar);
  const gt = pyText(gtChar);
  if (!gt) return { score: 0, gt: '', pred, error: 'no_gt' };
  return { score: recNorm(pred) === recNorm(gt) ? 1 : 0, gt, pred };
}

// ---------------------------------------------------------------- Spotting / Detection

export interface SpotItem {
  bbox: [number, number, number, number];
  char: string;
}

/** The official `_iou`: 0 for degenerate boxes, continuous coordinates. */
export function officialIoU(a: readonly number[], b: readonly number[]): number {
  const [ax1, ay1, ax2, ay2] = a;
  const [bx1, by1, bx2, by2] = b;
  if (ax2 <= ax1 || ay2 <= ay1 || bx2 <= bx1 || by2 <= by1) return 0;
  const iw = Math.min(ax2, bx2) - Math.max(ax1, bx1);
  const ih = Math.min(ay2, by2) - Math.max(ay1, by1);
  if (iw <= 0 || ih <= 0) return 0;
  const inter = iw * ih;
  const union = (ax2 - ax1) * (ay2 - ay1) + (bx2 - bx1) * (by2 - by1) - inter;
  return union > 0 ? inter / union : 0;
}

export interface MatchResult {
  tp: number;
  fp: number;
  fn: number;
  /** pred index → gt index, indices into the lists given. */
  pairs: { pred: number; gt: number; iou: number }[];
}

/**
 * Candidates need IoU ≥ threshold (and equal chars for Spotting); sorted by IoU descending with a
 * stable sort (ties keep prediction-major, then GT order, as Python's sort does), taken greedily.
 */
export function greedyMatch(preds: readonly SpotItem[], gts: readonly SpotItem[], requireChar: boolean, thr = IOU_THRESHOLD): MatchResult {
  if (preds.length === 0 || gts.length === 0) return { tp: 0, fp: preds.length, fn: gts.length, pairs: [] };
  const cands: { iou: number; pred: number; gt: number }[] = [];
  preds.forEach((p, pi) =>
    gts.forEach((g, gi) => {
      if (requireChar && p.char !== g.char) return;
      const iou = officialIoU(p.bbox, g.bbox);
      if (iou >= thr) cands.push({ iou, pred: pi, gt: gi });
    }),
  );
  cands.sort((a, b) => b.iou - a.iou); // Array.prototype.sort is stable
  const usedP = new Set<number>();
  const usedG = new Set<number>();
  const pairs: MatchResult['pairs'] = [];
  for (const c of cands) {
    if (usedP.has(c.pred) || usedG.has(c.gt)) continue;
    usedP.add(c.pred);
    usedG.add(c.gt);
    pairs.push(c);
  }
  return { tp: pairs.length, fp: preds.length - pairs.length, fn: gts.length - pairs.length, pairs };
}

export function f1(tp: number, fp: number, fn: number): number {
  if (tp === 0) return 0;
  const p = tp + fp ? tp / (tp + fp) : 0;
  const r = tp + fn ? tp / (tp + fn) : 0;
  return p + r ? (2 * p * r) / (p + r) : 0;
}

/** Scale pixel boxes to 0–1000 with factors computed first (the order matters in the last bit). */
export function scaleTo1000(items: readonly SpotItem[], w: number, h: number): SpotItem[] {
  if (w <= 0 || h <= 0) return [];
  const sx = 1000 / w;
  const sy = 1000 / h;
  return items.map((it) => ({ bbox: [it.bbox[0] * sx, it.bbox[1] * sy, it.bbox[2] * sx, it.bbox[3] * sy], char: it.char }));
}

/** A predicted item as the judge reads it, or null with the reason the judge skips it. */
export function readPredItem(it: unknown): { item: SpotItem } | { skip: string } {
  if (!isPlainObject(it)) return { skip: 'not an object' };
  const bb = it.bbox;
  if (!Array.isArray(bb) || bb.length !== 4) return { skip: 'bbox is not a list of 4' };
  const nums = bb.map(pyFloat);
  if (nums.some((v) => v === null)) return { skip: 'bbox has a non-number' };
  const b = nums as number[];
  if (b[2] <= b[0] || b[3] <= b[1]) return { skip: 'bbox has x2 ≤ x1 or y2 ≤ y1' };
  return { item: { bbox: [b[0], b[1], b[2], b[3]], char: pyText(it.char) } };
}

export interface SpottingJudgement {
  score: number;
  spotting_f1: number;
  detection_f1: number;
  detection: { tp: number; fp: number; fn: number };
  spotting: { tp: number; fp: number; fn: number };
  n_pred: number;
  n_gt: number;
  /** Indices (into the judged lists) for the viewer. */
  detMatch: MatchResult;
  spotMatch: MatchResult;
  /** judged-pred index → original item index; judged-gt index → GT char index. */
  predIndex: number[];
  spotPredIndex: number[];
  spotGtIndex: number[];
  preds: SpotItem[];
  gts1000: SpotItem[];
}

/**
 * Both F1s of one row. `gtPixels` are the row's GT chars (pixel xyxy, dropped boxes already
 * removed); `items` is the extract's `items` value as stored.
 */
export function judgeSpotting(gtPixels: readonly SpotItem[], width: number, height: number, items: unknown): SpottingJudgement {
  const gts = scaleTo1000(gtPixels, width, height);
  const preds: SpotItem[] = [];
  const predIndex: number[] = [];
  const src = pyTruthy(items) ? items : [];
  if (typeof src === 'number' || typeof src === 'boolean') throw new Error(`'${typeof src === 'number' ? 'int' : 'bool'}' object is not iterable`);
  // Iterating a dict yields its keys and a string its characters: none is an item, all skipped.
  const list: unknown[] = Array.isArray(src) ? src : [];
  list.forEach((it, k) => {
    const r = readPredItem(it);
    if ('item' in r) {
      preds.push(r.item);
      predIndex.push(k);
    }
  });
  const det = greedyMatch(preds, gts, false);
  const spotGtIndex: number[] = [];
  const spotGts = gts.filter((g, i) => !isUnkChar(g.char) && spotGtIndex.push(i) > 0);
  const spotPredIndex: number[] = [];
  const spotPreds = preds.filter((p, i) => !isUnkChar(p.char) && spotPredIndex.push(i) > 0);
  const spot = greedyMatch(spotPreds, spotGts, true);
  const spotF1 = f1(spot.tp, spot.fp, spot.fn);
  return {
    score: spotF1,
    spotting_f1: spotF1,
    detection_f1: f1(det.tp, det.fp, det.fn),
    detection: { tp: det.tp, fp: det.fp, fn: det.fn },
    spotting: { tp: spot.tp, fp: spot.fp, fn: spot.fn },
    n_pred: preds.length,
    n_gt: gts.length,
    detMatch: det,
    spotMatch: spot,
    predIndex,
    spotPredIndex,
    spotGtIndex,
    preds,
    gts1000: gts,
  };
}
