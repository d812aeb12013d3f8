/**
 * The page's one store, composed of typed slices (zustand's slices pattern). Components read it
 * with narrow selectors (`useBench((s) => s.report)`) and `useShallow` for lists, so a progress
 * tick does not re-render the report.
 *
 * - dataset: what is open; models: the prediction sets; protocol: what the user chose;
 * - scoring: progress and the report; uncertainty: the report's intervals and paired tests;
 * - cases (casesSlice.ts, the case list's): the CaseTable columns, filters (`setFacetFilter`, which
 *   the report's plots call), the compared pair and the selected case;
 * - gtHealth: the GT health findings (corrections applied) and the finding opened.
 */
import { create } from 'zustand';
import { createCasesSlice, type CasesSlice } from './casesSlice';
import { createDatasetSlice, type DatasetSlice } from './datasetSlice';
import { createGtHealthSlice, type GtHealthSlice } from './gtHealthSlice';
import { createModelsSlice, type ModelsSlice } from './modelsSlice';
import { createProtocolSlice, type ProtocolSlice } from './protocolSlice';
import { createScoringSlice, type ScoringSlice } from './scoringSlice';
import { createUncertaintySlice, type UncertaintySlice } from './uncertaintySlice';

export type BenchState = DatasetSlice & ModelsSlice & ProtocolSlice & ScoringSlice & UncertaintySlice & CasesSlice & GtHealthSlice;

export const useBench = create<BenchState>()((...a) => ({
  ...createDatasetSlice(...a),
  ...createModelsSlice(...a),
  ...createProtocolSlice(...a),
  ...createScoringSlice(...a),
  ...createGtHealthSlice(...a),
  ...createUncertaintySlice(...a),
  // The cases slice is typed over its own state; the composed store is a superset of it.
  ...createCasesSlice(...(a as unknown as Parameters<typeof createCasesSlice>)),
}));

export type { DatasetSlice, OpenDatasetInfo, OpenStatus } from './datasetSlice';
export { defaultOptions } from './protocolSlice';
