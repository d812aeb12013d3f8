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
