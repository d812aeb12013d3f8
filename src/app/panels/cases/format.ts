/** Small pure helpers the case rows share (kept out of the components so they are tested in Node). */
import { OUTCOME_CODES, type CaseTable } from '../../../core/caseTable';

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

/** The facet values of one row as {key, value} chips, in facet order, at most `limit`. */
export function rowFacets(table: CaseTable, row: number, limit = 5): { key: string; value: string }[] {
  const out: { key: string; value: string }[] = [];
  for (const col of table.facets) {
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

/** Facet values ordered for the sidebar: selected first, then by count (desc), then by name. */
export function orderFacetValues(values: readonly string[], counts: Uint32Array, selected: readonly string[]): number[] {
  const sel = new Set(selected);
  return values
    .map((_, c) => c)
    .sort((x, y) => Number(sel.has(values[y])) - Number(sel.has(values[x])) || counts[y] - counts[x] || (values[x] < values[y] ? -1 : values[x] > values[y] ? 1 : 0));
}

/** A human label for a facet key: `source_dataset` → "source dataset". */
export function facetLabel(key: string): string {
  return key.replace(/[_.]+/g, ' ');
}
