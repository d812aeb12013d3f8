/**
 * The uncertainty block of the report on screen (intervals, paired tests) and where its
 * computation is. It arrives after the report (the worker computes it in a separate, cancellable
 * call), so the report is never held back by it; a block always belongs to the report shown.
 */
import type { StateCreator } from 'zustand';
import type { UncertaintyBlockView } from '../report/uncertainty/block';
import type { BenchState } from './index';

export type IntervalsStatus =
  | { state: 'none' }
  | { state: 'computing'; done: number; total: number }
  | { state: 'done' }
  /** The protocol has `ci=off`. */
  | { state: 'off' }
  /** Stopped before the end (a new score started, or Cancel); the report has no intervals. */
  | { state: 'stopped' }
  | { state: 'failed'; message: string };

export interface UncertaintySlice {
  uncertainty: UncertaintyBlockView | null;
  intervals: IntervalsStatus;
}

export const createUncertaintySlice: StateCreator<BenchState, [], [], UncertaintySlice> = () => ({
  uncertainty: null,
  intervals: { state: 'none' },
});
