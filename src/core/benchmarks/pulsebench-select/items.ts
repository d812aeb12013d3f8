/**
 * One selectable item (GT or prediction) in the shape the matcher needs, and the field rules of
 * the spec's "Decisions" section: what counts as a box, a page, a content and a selected flag.
 */
import { tokenSet } from './tokens';

export interface SelItem {
  /** 1-based page; pages only partition the matching. */
  page: number;
  content: string;
  /** Exactly 8 finite numbers (a normalised polygon), else null ("missing"). */
  box: number[] | null;
  /** Mean of the 4 points of `box`. */
  centroid: [number, number] | null;
  tokens: Set<string>;
  category?: string;
}

/** A box is exactly 8 finite numbers; `[]`, null, absent, 4 numbers, strings: all missing. */
export function parseBox(v: unknown): number[] | null {
  if (!Array.isArray(v) || v.length !== 8) return null;
  for (const x of v) if (typeof x !== 'number' || !Number.isFinite(x)) return null;
  return v as number[];
}

export function centroidOf(box: readonly number[]): [number, number] {
  return [(box[0] + box[2] + box[4] + box[6]) / 4, (box[1] + box[3] + box[5] + box[7]) / 4];
}

/** Euclidean distance between two centroids (sqrt of the sum of squares, as written). */
export function centroidDistance(a: readonly [number, number], b: readonly [number, number]): number {
  const dx = a[0] - b[0];
  const dy = a[1] - b[1];
  return Math.sqrt(dx * dx + dy * dy);
}

function stringForm(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/** `content` when the key is present and not null (an empty string stays empty), else `text`. */
export function contentOf(o: Record<string, unknown>): string {
  if (o.content !== undefined && o.content !== null) return stringForm(o.content);
  return stringForm(o.text);
}

/** An integer page ("2" → 2); absent or null → 1; anything else → null (the item is unusable). */
export function pageOf(v: unknown): number | null {
  if (v === undefined || v === null) return 1;
  if (typeof v === 'number') return Number.isInteger(v) ? v : null;
  if (typeof v === 'string' && /^\s*[+-]?\d+\s*$/.test(v)) return parseInt(v, 10);
  return null;
}

/**
 * The selected flag of a prediction: false for `false`, `0`, "false", "no", "0" (strings compared
 * trimmed and case-insensitively); absent (or null) means selected; anything else is selected.
 */
export function selectedOf(v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (v === false || v === 0) return false;
  if (typeof v === 'string') return !['false', 'no', '0'].includes(v.trim().toLowerCase());
  return true;
}

const NO_TOKENS: Set<string> = new Set();

/**
 * Builds an item from a raw record; null when its page is not an integer. `match: false` skips
 * tokenising (unselected candidates are drawn, never matched: tens of thousands of Sets saved).
 */
export function toItem(o: Record<string, unknown>, match = true): SelItem | null {
  const page = pageOf(o.page);
  if (page === null) return null;
  const content = contentOf(o);
  const box = parseBox(o.bbox);
  const item: SelItem = { page, content, box, centroid: box ? centroidOf(box) : null, tokens: match ? tokenSet(content) : NO_TOKENS };
  if (typeof o.category === 'string') item.category = o.category;
  return item;
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
