/** The case list's `gt_health` facet: each case's GT health finding kinds (pure; tested alone). */
import type { CaseTable, FacetColumn } from '../../core';
import type { GtHealth } from '../../worker/client';

/** The case list's facet holding each case's finding kinds. */
export const GT_HEALTH_FACET = 'gt_health';

/** `table` with its `gt_health` facet column rebuilt from `health` (no column without findings). */
export function withHealthFacet(table: CaseTable, health: GtHealth | null): CaseTable {
  const facets = table.facets.filter((f) => f.key !== GT_HEALTH_FACET);
  if (!health || health.findings.length === 0) return facets.length === table.facets.length ? table : { ...table, facets };
  const kindsOf = new Map<string, Set<string>>();
  for (const f of health.findings) {
    let set = kindsOf.get(f.case_id);
    if (!set) kindsOf.set(f.case_id, (set = new Set()));
    set.add(f.kind);
  }
  const values = [...new Set(health.findings.map((f) => f.kind))].sort();
  const code = new Map(values.map((v, i) => [v, i]));
  const offsets = new Uint32Array(table.caseIds.length + 1);
  const codes: number[] = [];
  table.caseIds.forEach((id, i) => {
    offsets[i] = codes.length;
    for (const k of kindsOf.get(id) ?? []) codes.push(code.get(k)!);
  });
  offsets[table.caseIds.length] = codes.length;
  const col: FacetColumn = { key: GT_HEALTH_FACET, values, offsets, codes: Uint32Array.from(codes) };
  // The same kinds per case as the table has (a re-check after an edit that fixed nothing
  // case-wide): the table itself, so the list is not filtered and drawn again for nothing.
  const old = table.facets.find((f) => f.key === GT_HEALTH_FACET);
  if (old && sameColumn(old, col)) return table;
  return { ...table, facets: [...facets, col] };
}

function sameColumn(a: FacetColumn, b: FacetColumn): boolean {
  const eq = (x: ArrayLike<unknown>, y: ArrayLike<unknown>) => x.length === y.length && Array.prototype.every.call(x, (v, i) => v === y[i]);
  return eq(a.values, b.values) && eq(a.offsets, b.offsets) && eq(a.codes, b.codes);
}

