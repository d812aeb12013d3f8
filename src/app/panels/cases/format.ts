/** Small pure helpers the case rows share (kept out of the components so they are tested in Node). */
import { OUTCOME_CODES, type CaseTable } from '../../../core/caseTable';
import { naturalCompare } from './query';

/** A score as the list shows it: up to 3 decimals, "—" when the case has none. */
export function formatScore(score: number): string {
  if (Number.isNaN(score)) return '—';
  return String(Math.round(score * 1000) / 1000);
}

export function outcomeName(code: number): string {
  return OUTCOME_CODES[code] ?? 'none';
}

/**
 * A count with thousands separators (20,000). Not toLocaleString: its first call loads the
 * number formatting data, a 20 ms stall in the middle of the case list's first render.
 */
export function formatCount(n: number): string {
  const s = String(Math.trunc(n));
  const neg = s.startsWith('-');
  const digits = neg ? s.slice(1) : s;
  return (neg ? '-' : '') + digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** The facet values of one row as {key, value} chips, in facet order, at most `limit` (only `keys`, when given). */
export function rowFacets(table: CaseTable, row: number, limit = 5, keys?: readonly string[]): { key: string; value: string }[] {
  const out: { key: string; value: string }[] = [];
  for (const col of table.facets) {
    if (keys && !keys.includes(col.key)) continue;
    for (let j = col.offsets[row]; j < col.offsets[row + 1] && out.length < limit; j++) out.push({ key: col.key, value: col.values[col.codes[j]] });
  }
  return out;
}

/** The error kinds a model has on a row, decoded from its bitmask. */
export function rowErrors(kinds: readonly string[], mask: number): string[] {
  const out: string[] = [];
  for (let bit = 0; bit < kinds.length && bit < 32; bit++) if ((mask >>> bit) & 1) out.push(kinds[bit]);
  return out;
}

/**
 * Facet values ordered for the sidebar: selected first, then by count (desc), then by value — a
 * facet whose values are all numbers (a page count, a year, a difficulty) in numeric order
 * (2 before 10), any other with digit runs compared as numbers.
 */
export function orderFacetValues(values: readonly string[], counts: Uint32Array, selected: readonly string[]): number[] {
  const sel = new Set(selected);
  const byValue = valueComparator(values);
  return values.map((_, c) => c).sort((x, y) => Number(sel.has(values[y])) - Number(sel.has(values[x])) || counts[y] - counts[x] || byValue(x, y));
}

const NUMBER = /^\s*-?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?\s*$/i;

/** True when every value of a facet reads as a number. */
export function isNumericFacet(values: readonly string[]): boolean {
  return values.length > 0 && values.every((v) => NUMBER.test(v));
}

/** Compares value codes of one facet: numerically for a numeric facet, else naturally. */
export function valueComparator(values: readonly string[]): (x: number, y: number) => number {
  if (isNumericFacet(values)) return (x, y) => Number(values[x]) - Number(values[y]) || x - y;
  return (x, y) => naturalCompare(values[x], values[y]) || x - y;
}

/**
 * Shortens text in the MIDDLE to at most `max` characters (code points): the start and the end —
 * for a case id the folder and the file name with its task — both stay readable.
 */
export function middleEllipsis(text: string, max: number): string {
  const chars = [...text];
  if (chars.length <= max || max < 5) return chars.length <= max ? text : chars.slice(0, Math.max(1, max - 1)).join('') + '…';
  const keep = max - 1;
  const head = Math.ceil(keep * 0.3); // the end (file name, task) tells cases apart more often
  const tail = keep - head;
  return chars.slice(0, head).join('') + '…' + chars.slice(chars.length - tail).join('');
}

/**
 * The facets worth a chip on a row: those whose value is not the same for every case (a facet
 * that never changes tells no case from another). Task is left out: the row shows it by the name.
 */
export function varyingFacets(table: CaseTable): string[] {
  return table.facets.filter((col) => col.key !== 'task' && distinctValues(col) > 1).map((col) => col.key);
}

function distinctValues(col: CaseTable['facets'][number]): number {
  const seen = new Set<number>();
  for (let j = 0; j < col.codes.length && seen.size < 2; j++) seen.add(col.codes[j]);
  // A row without any value also sets it apart from rows with one.
  for (let i = 0; i + 1 < col.offsets.length && seen.size < 2; i++) if (col.offsets[i] === col.offsets[i + 1]) seen.add(-1);
  return seen.size;
}

/** The task of a row when the table has a `task` facet, else null. */
export function rowTask(table: CaseTable, row: number): string | null {
  const col = table.facets.find((f) => f.key === 'task');
  if (!col || col.offsets[row] === col.offsets[row + 1]) return null;
  return col.values[col.codes[col.offsets[row]]];
}

/** A human label for a facet key: `source_dataset` → "source dataset". */
export function facetLabel(key: string): string {
  return key.replace(/[_.]+/g, ' ');
}

/** A facet's name for people: `has_care_gt` → "has care GT", `source_dataset` → "source dataset". */
export function facetName(key: string): string {
  return facetLabel(key).replace(/\bgt\b/gi, 'GT');
}

/** Longest chip text (code points) before it is cut with "…" (the full value is in its tooltip). */
export const CHIP_CHARS = 18;

/**
 * What a row's chip says for a facet value (issue #42 item 13: a bare "false" meant has_care_gt
 * false; a bare "3" means nothing either): yes / no facets and numbers are named —
 * "has care GT: no", "page 3" — words stand alone ("glass", "oracle").
 */
export function chipText(key: string, value: string): string {
  let t = value;
  if (value === 'true' || value === 'false') t = `${facetName(key)}: ${value === 'true' ? 'yes' : 'no'}`;
  else if (NUMBER.test(value)) t = `${facetName(key)} ${value.trim()}`;
  const chars = [...t];
  return chars.length <= CHIP_CHARS ? t : `${chars.slice(0, CHIP_CHARS - 1).join('')}…`;
}

/** A rough width in px of 11-px UI text: wide (CJK, full-width) characters count about double. */
export function textWidth(text: string, px = 11): number {
  let w = 0;
  for (const ch of text) w += (ch.codePointAt(0) ?? 0) >= 0x2e80 ? px : px * 0.58;
  return w;
}

/**
 * How many of `chips` fit whole in `width` px (each with its padding and gap), leaving room for
 * the "+N" of the rest — at least one, so a row always shows something.
 */
export function chipsThatFit(chips: readonly string[], width: number): number {
  const chip = (t: string) => textWidth(t) + 10 + 4;
  let used = 0;
  for (let k = 0; k < chips.length; k++) {
    const more = k + 1 < chips.length ? chip(`+${chips.length - k - 1}`) : 0;
    if (used + chip(chips[k]) + more > width) return Math.max(1, k);
    used += chip(chips[k]);
  }
  return chips.length;
}

/**
 * Tasks whose answer is a label or a text, not a set of regions: a missed GT or a false positive
 * is not what their errors are (Chronicles classification, parsing, recognition; TABench R2T).
 */
const NON_DETECTION_TASKS = new Set(['classification', 'parsing', 'recognition', 'r2t']);

/**
 * Whether "n FN · n FP" means anything on a row: not on a task that answers with a label or text
 * (NON_DETECTION_TASKS), nor on one where no model has a missed GT or a false positive on any case
 * (the whole table when there is no task facet).
 */
export function hasDetectionCounts(table: CaseTable): (row: number) => boolean {
  let byTable = detectionTasks.get(table);
  if (!byTable) {
    const task = table.facets.find((f) => f.key === 'task');
    const taskOf = (row: number) => (task && task.offsets[row] < task.offsets[row + 1] ? task.codes[task.offsets[row]] : -1);
    const yes = new Set<number>();
    for (const m of table.models) {
      const c = table.perModel[m];
      if (!c) continue;
      for (let i = 0; i < table.caseIds.length; i++) if (c.misses[i] > 0 || c.falsePositives[i] > 0) yes.add(taskOf(i));
    }
    if (task) task.values.forEach((v, code) => NON_DETECTION_TASKS.has(v.toLowerCase()) && yes.delete(code));
    byTable = (row: number) => yes.has(taskOf(row));
    detectionTasks.set(table, byTable);
  }
  return byTable;
}
const detectionTasks = new WeakMap<CaseTable, (row: number) => boolean>();
