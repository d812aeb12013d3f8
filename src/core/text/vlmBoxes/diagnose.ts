/**
 * The per-file diagnosis of box dialects (shared/specs/vlm-boxes.md "What the readers do"): which
 * dialects the answers' markers name, the headline number under the spec's reading and under each
 * plausible other reading of the *whole file*, and the option that reads it best. The space is
 * chosen by fit over the file — never per box against the GT, which would inflate scores.
 *
 * The benchmark supplies `headline(reading)`: its real headline number with every answer read
 * that way (the same matching and pooling as its score), so the numbers quoted are the numbers
 * the option gives.
 */
import { BOXES_OPTION, detectFamily, MAX_PIXELS_OPTION, MIN_PIXELS_OPTION, readerOf, sameMarkers } from './families';
import type { OptionValue } from '../../model';
import type { BoxesChoice, BoxFamily } from './types';

/** A reading the file could be scored under; `auto` reads `bbox_2d` answers as `bbox2d`. */
export interface Reading {
  choice: BoxesChoice;
  value: number;
  /** Resize options the reading needs beyond the protocol's (Qwen2.5-VL's min / max pixels). */
  options?: Record<string, number>;
}

/** What the page shows beside the model, and report.json carries (`models.<m>.box_dialect`). */
export interface BoxDialectDiagnosis {
  /** The headline metric key the numbers are of (TABench `t2r/f1`, gansulishuzhi `iou0.5/f1`). */
  metric: string;
  /** Answers looked at, and how many of them carry each dialect's markers. */
  answers: number;
  dialects: { family: BoxFamily; answers: number }[];
  /** The option in force, and the headline under it (the report's number). */
  current: BoxesChoice;
  currentValue: number;
  /** The headline under the spec's reading (`boxes` absent / default): the official number. */
  official: number;
  /** Every reading tried, best first. */
  readings: Reading[];
  /**
   * The reading that fits the file better than the official one, or null: its protocol options
   * (`boxes` and any resize bounds), the same as CLI text (`boxes=qwen25vl --option
   * qwen25vl_max_pixels=1003520`, what follows the first `--option`), and its headline.
   */
  fit: { choice: BoxesChoice; options: Record<string, OptionValue>; option: string; value: number } | null;
  /** The fitting reading is the one in force (its options are the protocol's): nothing to offer. */
  fitInForce: boolean;
  /** What `boxes=auto` reads `bbox_2d` answers as (the better fit of Qwen2.5-VL and Qwen3-VL). */
  bbox2d: BoxFamily;
  /** The human sentence for report.json's warnings. */
  text: string;
}

/** A reading must beat the official number by this much to be offered (a file, not noise). */
export const FIT_MARGIN = 0.01;
/**
 * …and by this much when no answer carries a dialect's markers: a plain-box file read in another
 * space is a guess the markers do not back (an imperfect pixel answer can score a little better
 * read as Qwen2.5-VL's resized pixels, which are close to the image's own), so only a clear gap
 * is worth a sentence.
 */
export const PLAIN_FIT_MARGIN = 0.1;
/**
 * Qwen2.5-VL's input size depends on the min / max pixels its runner was given. Besides the
 * protocol's (default 3136 / 12,845,056), the fit tries the pair Qwen's README shows as the
 * example to set (`min_pixels = 256*28*28`, `max_pixels = 1280*28*28`) and that max alone.
 */
const RESIZE_VARIANTS: readonly Record<string, number>[] = [{ [MAX_PIXELS_OPTION]: 1280 * 28 * 28 }, { [MIN_PIXELS_OPTION]: 256 * 28 * 28, [MAX_PIXELS_OPTION]: 1280 * 28 * 28 }];
/** Readings of a file whose answers carry no dialect marker: 0–1000, 0–999, y first, resized pixels. */
const PLAIN_VARIANTS: readonly BoxFamily[] = ['qwen3vl', 'deepseek', 'gemini', 'qwen25vl'];

export function countDialects(texts: readonly string[]): { family: BoxFamily; answers: number }[] {
  const n = new Map<BoxFamily, number>();
  for (const t of texts) {
    const f = detectFamily(t);
    if (f) n.set(f, (n.get(f) ?? 0) + 1);
  }
  return [...n.entries()].map(([family, answers]) => ({ family, answers })).sort((a, b) => b.answers - a.answers);
}

export function describeFamily(f: BoxFamily): string {
  const r = readerOf(f);
  return `${r.models} (${r.short})`;
}

function fmt(v: number): string {
  return Number.isInteger(v) ? String(v) : v.toFixed(4).replace(/0+$/, '');
}

/**
 * Diagnoses one prediction file. `texts` are its answers (cleaned); `headline(choice, bbox2d)`
 * scores the whole file under a reading. Returns null when there is nothing to say: no reading
 * fits better than the official one, and the official reading is the one in force.
 */
export function diagnoseBoxDialects(
  texts: readonly string[],
  metric: string,
  current: BoxesChoice,
  headline: (choice: BoxesChoice, bbox2d: BoxFamily, extra: Record<string, number>) => number,
  protocolOptions: Record<string, unknown> = {},
): BoxDialectDiagnosis | null {
  const dialects = countDialects(texts);
  const marked = dialects.reduce((s, d) => s + d.answers, 0);
  const families = new Set<BoxFamily>();
  for (const d of dialects) for (const f of sameMarkers(d.family)) families.add(f);
  if (families.size === 0) for (const f of PLAIN_VARIANTS) families.add(f);
  const readings: Reading[] = [];
  const valueOf = new Map<BoxesChoice, number>();
  const official = headline('default', 'qwen25vl', {});
  valueOf.set('default', official);
  for (const f of families) valueOf.set(f, headline(f, 'qwen25vl', {}));
  // Qwen2.5-VL under the other resize bounds its runners commonly use: the best one stands for it.
  let q25: Reading | null = families.has('qwen25vl') ? { choice: 'qwen25vl', value: valueOf.get('qwen25vl')! } : null;
  const variants: Reading[] = [];
  if (q25) {
    for (const v of RESIZE_VARIANTS) {
      const r: Reading = { choice: 'qwen25vl', value: headline('qwen25vl', 'qwen25vl', v), options: v };
      variants.push(r);
      if (r.value > q25.value) q25 = r;
    }
  }
  // Qwen2.5-VL and Qwen3-VL write the same JSON: the file's fit says which space it is in.
  const bbox2d: BoxFamily = (valueOf.get('qwen3vl') ?? -1) > (q25?.value ?? -1) ? 'qwen3vl' : 'qwen25vl';
  const autoExtra = bbox2d === 'qwen25vl' ? (q25?.options ?? {}) : {};
  for (const [choice, value] of valueOf) readings.push({ choice, value });
  readings.push(...variants);
  // auto differs from one family only when the file mixes dialects or leaves answers unmarked.
  if (dialects.length > 1 || (dialects.length === 1 && marked < texts.length)) {
    readings.push({ choice: 'auto', value: headline('auto', bbox2d, autoExtra), ...(Object.keys(autoExtra).length ? { options: autoExtra } : {}) });
  }
  // The reading in force, under the protocol's own options (its number is the report's).
  if (current !== 'default' && !valueOf.has(current)) {
    const value = headline(current, bbox2d, {});
    valueOf.set(current, value);
    if (!readings.some((r) => r.choice === current && !r.options)) readings.push({ choice: current, value });
  }
  // Best first; among equals the reading needing fewer options (stable sort keeps them first).
  readings.sort((a, b) => b.value - a.value);
  const best = readings.find((r) => r.choice !== 'default');
  const margin = dialects.length > 0 ? FIT_MARGIN : PLAIN_FIT_MARGIN;
  let fit: BoxDialectDiagnosis['fit'] = null;
  if (best && best.value > official + margin) {
    const options: Record<string, OptionValue> = { [BOXES_OPTION]: best.choice, ...(best.options ?? {}) };
    fit = { choice: best.choice, options, option: Object.entries(options).map(([k, v]) => `${k}=${v}`).join(' --option '), value: best.value };
  }
  const currentValue = valueOf.get(current) ?? official;
  const fitInForce = fit !== null && Object.entries(fit.options).every(([k, v]) => (k === BOXES_OPTION ? current === v : protocolOptions[k] === v));
  // Nothing is said when the spec's reading is already the best fit and is the one in force.
  if (fit === null && current === 'default') return null;

  const parts: string[] = [];
  const what = dialects.length
    ? dialects.map((d) => `${d.answers} of ${texts.length} answers as ${describeFamily(d.family)}`).join('; ')
    : `no dialect markers in its ${texts.length} answers (plain boxes)`;
  parts.push(`box dialect: ${what}`);
  parts.push(`${metric} as the spec's parser reads them (official) ${fmt(official)}`);
  if (current !== 'default') parts.push(`as read now (--option ${BOXES_OPTION}=${current}) ${fmt(currentValue)}`);
  if (fit && !fitInForce) {
    const how = fit.choice === 'auto' ? `each answer by its markers (bbox_2d as ${bbox2d})` : describeFamily(fit.choice as BoxFamily);
    parts.push(`read as ${how}: ${fmt(fit.value)} — --option ${fit.option} reads them`);
  } else if (!fit) {
    parts.push(`no reading fits the file better than the spec's`);
  }
  return { metric, answers: texts.length, dialects, current, currentValue, official, readings, fit, fitInForce, bbox2d, text: parts.join('; ') };
}
