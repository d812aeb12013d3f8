/** The prediction sets (models) loaded into the session, in the order they were added. */
import type { StateCreator } from 'zustand';
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
  /** Named so, not setModels: the cases slice has setModels(a, b) for the compared pair. */
  setModelNames: (models: string[]) => void;
  setModelError: (message: string | null) => void;
  setModelContent: (content: Record<string, string>) => void;
}

export const createModelsSlice: StateCreator<BenchState, [], [], ModelsSlice> = (set) => ({
  models: [],
  modelError: null,
  modelContent: {},
  setModelContent: (modelContent) => set({ modelContent }),
  setModelNames: (models) => set({ models }),
  setModelError: (modelError) => set({ modelError }),
});
