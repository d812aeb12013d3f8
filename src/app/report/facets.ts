/** Which facet of the case table a report group corresponds to, so a bar click can filter by it. */
import { useBench } from '../store';

/**
 * Returns a lookup: (candidate facet keys, value) → the facet to filter on, or undefined when the
 * case table has no such facet value (then the bar is drawn but not clickable).
 */
export function useFacetLookup(): (keys: readonly string[], value: string) => { key: string; value: string } | undefined {
  const table = useBench((s) => s.caseTable);
  return (keys, value) => {
    if (!table) return undefined;
    for (const k of keys) {
      const col = table.facets.find((f) => f.key === k);
      if (!col) continue;
      const hit = col.values.find((v) => v === value) ?? col.values.find((v) => v.toLowerCase() === value.toLowerCase());
      if (hit !== undefined) return { key: k, value: hit };
    }
    return undefined;
  };
}

/** Filters the case list to a report group's cases and opens the workspace on them. */
export function useSetFacet(): (f: { key: string; value: string }) => void {
  const setFacetFilter = useBench((s) => s.setFacetFilter);
  const listCases = useListCases();
  return (f) => listCases(() => setFacetFilter(f.key, f.value));
}

/**
 * Runs a change of the case-list filters that a report click makes (a class bar, a histogram bin,
 * a curve point), in one place so anything every such click should also do (e.g. bring the case
 * list into view) is added here once.
 */
export function useListCases(): (apply: () => void) => void {
  const setTab = useBench((s) => s.setWorkspaceTab);
  return (apply) => {
    apply();
    setTab('workspace');
  };
}
