/** The prediction sets (models) loaded into the session, in the order they were added. */
import type { StateCreator } from 'zustand';
import type { RefusedFile } from '../../worker/client';
import type { BenchState } from './index';

export interface ModelsSlice {
  models: string[];
  /**
   * Model name → fingerprint of its prediction file's content (read by the worker as the file is
   * read). Reviews of predictions are stored under it, so renaming or re-adding keeps them.
   */
  modelContent: Record<string, string>;
  /** A message about the last model operation (e.g. why a file could not be added). */
  modelError: string | null;
  /**
   * The files of the last selection that were not added, each with its reason (the others were).
   * Shown in a notice above both views until dismissed or the next add.
   */
  refusals: RefusedFile[];
  /** The models the same selection did add (named beside the refusals: every file's outcome). */
  lastAdded: string[];
  setRefusals: (refusals: RefusedFile[], added?: string[]) => void;
  /** Dismisses the notice: the refusals and the last model error. */
  dismissModelNotice: () => void;
  /** Named so, not setModels: the cases slice has setModels(a, b) for the compared pair. */
  setModelNames: (models: string[]) => void;
  setModelError: (message: string | null) => void;
  setModelContent: (content: Record<string, string>) => void;
  /** model → the loaded model whose file content it repeats (content fingerprint, worker-side). */
  duplicateOf: Record<string, { sameAs: string }>;
  noteDuplicates: (list: { model: string; sameAs: string }[]) => void;
}

export const createModelsSlice: StateCreator<BenchState, [], [], ModelsSlice> = (set) => ({
  models: [],
  modelError: null,
  refusals: [],
  lastAdded: [],
  setRefusals: (refusals, lastAdded = []) => set({ refusals, lastAdded }),
  dismissModelNotice: () => set({ refusals: [], lastAdded: [], modelError: null }),
  modelContent: {},
  setModelContent: (modelContent) => set({ modelContent }),
  duplicateOf: {},
  // Notes of models no longer loaded (removed, renamed) are dropped with them.
  setModelNames: (models) =>
    set((s) => ({ models, duplicateOf: Object.fromEntries(Object.entries(s.duplicateOf).filter(([m, d]) => models.includes(m) && models.includes(d.sameAs))) })),
  noteDuplicates: (list) => set((s) => ({ duplicateOf: { ...s.duplicateOf, ...Object.fromEntries(list.map((d) => [d.model, { sameAs: d.sameAs }])) } })),
  setModelError: (modelError) => set({ modelError }),
});
