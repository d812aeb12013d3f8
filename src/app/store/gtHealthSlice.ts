/**
 * GT health (shared/specs/lint.md) on the page: the findings of the open dataset's GT with the
 * user's corrections applied, whether a check is running, and the finding the user opened (the
 * viewer selects its instance and the details panel shows its text).
 */
import type { StateCreator } from 'zustand';
import type { Progress } from '../../core';
import type { GtHealth } from '../../worker/client';
import type { BenchState } from './index';

/** A finding opened from the GT health panel; `seq` makes opening the same one again count. */
export interface GtFocus {
  caseId: string;
  kind: string;
  instance?: number;
  added?: number;
  seq: number;
}

export interface GtHealthSlice {
  gtHealth: GtHealth | null;
  gtHealthRunning: boolean;
  gtHealthProgress: Progress | null;
  gtHealthError: string | null;
  gtFocus: GtFocus | null;
  setGtHealthRunning: (running: boolean) => void;
  setGtHealthProgress: (p: Progress | null) => void;
  setGtHealth: (h: GtHealth | null, error?: string | null) => void;
  focusFinding: (f: Omit<GtFocus, 'seq'> | null) => void;
}

let seq = 0;

export const createGtHealthSlice: StateCreator<BenchState, [], [], GtHealthSlice> = (set) => ({
  gtHealth: null,
  gtHealthRunning: false,
  gtHealthProgress: null,
  gtHealthError: null,
  gtFocus: null,
  setGtHealthRunning: (gtHealthRunning) => set({ gtHealthRunning, ...(gtHealthRunning ? {} : { gtHealthProgress: null }) }),
  setGtHealthProgress: (gtHealthProgress) => set({ gtHealthProgress }),
  setGtHealth: (gtHealth, gtHealthError = null) => set({ gtHealth, gtHealthError, gtHealthRunning: false, gtHealthProgress: null }),
  focusFinding: (f) => set({ gtFocus: f ? { ...f, seq: ++seq } : null }),
});
