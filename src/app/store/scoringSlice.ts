/**
 * Scoring progress and its result. The report (metrics per model) lives here and the CaseTable
 * columns in the cases slice; full CaseRecords never enter the store — the viewer fetches the one
 * on screen from the worker.
 */
import type { StateCreator } from 'zustand';
import type { CaseTable, Progress, Report } from '../../core';
import type { BenchState } from './index';
import { withHealthFacet } from './healthFacet';

export interface ScoringSlice {
  scoring: boolean;
  /** Prediction files are being read into the worker (same progress bar and Cancel as scoring). */
  adding: boolean;
  cancelling: boolean;
  progress: Progress | null;
  report: Report | null;
  /** ModelResult.extra per model (e.g. LTB's per-threshold curves). */
  extras: Record<string, Record<string, unknown>>;
  /** How long the last score took, for the status line. */
  elapsedMs: number | null;
  scoreError: string | null;
  /** Bumped on every new result so consumers can refetch cases (e.g. the viewer). */
  resultVersion: number;
  startScoring: () => void;
  startAdding: () => void;
  /** Ends an add; `notice` (e.g. "cancelled") shows where a failed score's message does. */
  stopAdding: (notice?: string | null) => void;
  setProgress: (p: Progress) => void;
  setCancelling: (v: boolean) => void;
  /**
   * Installs a finished result. Without `caseTable` the case list keeps its table until the caller
   * installs the new one with setCaseTable — rescore does so a task later, so the report and the
   * case list each render in their own task and neither blocks the page for long.
   */
  setScored: (r: { report: Report; extras: Record<string, Record<string, unknown>>; caseTable?: CaseTable; elapsedMs: number }) => void;
  stopScoring: (error?: string | null) => void;
}

export const createScoringSlice: StateCreator<BenchState, [], [], ScoringSlice> = (set, get) => ({
  scoring: false,
  adding: false,
  cancelling: false,
  progress: null,
  report: null,
  extras: {},
  elapsedMs: null,
  scoreError: null,
  resultVersion: 0,
  startScoring: () => set({ scoring: true, cancelling: false, progress: null, scoreError: null }),
  startAdding: () => set({ adding: true, cancelling: false, progress: null, scoreError: null }),
  stopAdding: (notice = null) => set({ adding: false, cancelling: false, progress: null, scoreError: notice }),
  setProgress: (progress) => set({ progress }),
  setCancelling: (cancelling) => set({ cancelling }),
  setScored: ({ report, extras, caseTable, elapsedMs }) => {
    set((s) => ({ report, extras, elapsedMs, scoring: false, cancelling: false, progress: null, resultVersion: s.resultVersion + 1 }));
    if (caseTable) get().setCaseTable(withHealthFacet(caseTable, get().gtHealth));
  },
  stopScoring: (scoreError = null) => set({ scoring: false, cancelling: false, progress: null, scoreError }),
});
