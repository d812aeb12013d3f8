/** What is open: the recognised benchmark, its summary and protocols, or why opening failed. */
import type { StateCreator } from 'zustand';
import type { BenchmarkId, DatasetInfo, ProtocolSpec, ReportLayout } from '../../core';
import type { BenchState } from './index';

export type OpenStatus = 'idle' | 'opening' | 'open' | 'error';

export interface OpenDatasetInfo {
  benchmark: BenchmarkId;
  title: string;
  info: DatasetInfo;
  protocols: ProtocolSpec[];
  /** How the report of this benchmark is laid out (sent by the worker: the page holds no adapter). */
  reportLayout: ReportLayout;
  demo: boolean;
  /** The folder name (or "demo"). */
  label: string;
  /** The folder holds several benchmarks: all of them, the opened one first (else empty). */
  candidates?: { benchmark: BenchmarkId; title: string; confidence: number; reason: string }[];
}

export interface DatasetSlice {
  status: OpenStatus;
  /** The one-line reason opening failed (e.g. the core's detection failure message). */
  openError: string | null;
  dataset: OpenDatasetInfo | null;
  /** Benchmarks with a built-in demo in this build. */
  demos: string[];
  setOpening: () => void;
  setOpened: (d: OpenDatasetInfo) => void;
  setOpenError: (message: string) => void;
  setDemos: (ids: string[]) => void;
  closeDataset: () => void;
}

export const createDatasetSlice: StateCreator<BenchState, [], [], DatasetSlice> = (set, get) => ({
  status: 'idle',
  openError: null,
  dataset: null,
  demos: [],
  setOpening: () => set({ status: 'opening', openError: null }),
  setOpened: (dataset) => set({ status: 'open', dataset, openError: null }),
  setOpenError: (openError) => set((s) => ({ status: s.dataset ? 'open' : 'error', openError })),
  setDemos: (demos) => set({ demos }),
  closeDataset: () => {
    set({ status: 'idle', dataset: null, openError: null, models: [], report: null, extras: {}, refusals: [], modelError: null, gtHealth: null, gtHealthError: null, gtFocus: null, gtHealthRunning: false });
    get().setCaseTable(null);
    get().selectCase(null);
  },
});
