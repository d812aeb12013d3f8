/**
 * The 15 LTB annotation files ("splits"), the file-name spellings each accepts, and the score
 * thresholds of MMOCR's `hmean-iou` sweep.
 */

export interface SplitDef {
  /** The key in report metrics (`<key>/hmean`). */
  key: string;
  /** `challenging_<stem>.json` stems accepted for it (the code's spelling first). */
  stems: readonly string[];
  /** One of the 13 challenge categories (tags); false for `hard` and `norm`. */
  category: boolean;
}

export const SPLITS: readonly SplitDef[] = [
  { key: 'blurred', stems: ['blurry', 'blurred'], category: true },
  { key: 'artistic', stems: ['artistic'], category: true },
  { key: 'glass', stems: ['glass'], category: true },
  { key: 'single_char', stems: ['single_char', 'single-character'], category: true },
  { key: 'distorted', stems: ['distorted'], category: true },
  { key: 'inverse', stems: ['inverse'], category: true },
  { key: 'delimited', stems: ['delimited'], category: true },
  { key: 'dense', stems: ['dense'], category: true },
  { key: 'overlapped', stems: ['overlapped'], category: true },
  { key: 'occluded', stems: ['occluded'], category: true },
  { key: 'low_contrast', stems: ['low_contrast', 'low-contrast'], category: true },
  { key: 'complex_bg', stems: ['complex_bg', 'complex-background'], category: true },
  { key: 'others', stems: ['others', 'other'], category: true },
  { key: 'hard', stems: ['hard'], category: false },
  { key: 'norm', stems: ['norm'], category: false },
];

export const SPLIT_KEYS: readonly string[] = SPLITS.map((s) => s.key);
export const HARD = SPLIT_KEYS.indexOf('hard');
export const NORM = SPLIT_KEYS.indexOf('norm');
/** Bits of the 13 category splits in a split mask. */
export const CATEGORY_BITS = SPLITS.reduce((m, s, i) => (s.category ? m | (1 << i) : m), 0);

const BY_STEM = new Map<string, number>();
SPLITS.forEach((s, i) => s.stems.forEach((st) => BY_STEM.set(st, i)));

/** `challenging_blurry.json` → index of `blurred`; null for any other file name. */
export function splitOfFileName(name: string): number | null {
  const m = /^challenging_(.+)\.json$/i.exec(name);
  if (!m) return null;
  return BY_STEM.get(m[1].toLowerCase()) ?? null;
}

/** Challenge tags (category keys) of a split mask. */
export function tagsOfMask(mask: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < SPLITS.length; i++) if (SPLITS[i].category && mask & (1 << i)) out.push(SPLITS[i].key);
  return out;
}

/**
 * numpy's `np.arange(0.3, 1.0, 0.1)`: numpy computes `start + i * step` in float64, so the
 * values are 0.3, 0.4, 0.5, 0.6000000000000001, 0.7000000000000002, 0.8000000000000003,
 * 0.9000000000000001 — reported as the official code holds them.
 */
export const SWEEP_THRESHOLDS: readonly number[] = Array.from({ length: 7 }, (_, i) => arangeValue(0.3, 0.1, i));

/** numpy arange's i-th value: `start + i * delta` where delta = (start + step) − start. */
function arangeValue(start: number, step: number, i: number): number {
  // numpy fills arange by repeated addition of `delta = (start + step) - start` from the first two values.
  const delta = start + step - start;
  return start + i * delta;
}

/** The label a threshold carries in metric keys: `@0.6` for 0.6000000000000001. */
export function thresholdLabel(t: number): string {
  const r = Math.round(t * 10000) / 10000;
  return String(r).includes('.') ? String(r) : r.toFixed(1);
}
