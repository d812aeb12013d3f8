/** What each benchmark's lint returns, and the time slicing that keeps a worker responsive. */
import type { RunContext } from '../model';
import type { LintFinding } from './types';

export interface BenchmarkLint {
  findings: LintFinding[];
  /** Cases as case_analysis.jsonl counts them, and GT instances over all of them. */
  cases: number;
  instances: number;
}

/**
 * Work between two yields, in ms: far under the page's 50 ms budget for one task, so an abort
 * (or any message to the worker) waits at most this long. The clock is read every 8 items.
 */
export const SLICE_MS = 12;

/**
 * Runs `step(i)` for i in [0, n) in time slices of about SLICE_MS, yielding to the event loop
 * between slices (a worker takes its messages then; an aborted signal stops the run) and
 * reporting progress once per slice.
 */
export async function inSlices(n: number, ctx: RunContext | undefined, label: string, step: (i: number) => void, sliceMs = SLICE_MS): Promise<void> {
  let i = 0;
  while (i < n) {
    ctx?.signal?.throwIfAborted();
    ctx?.progress?.({ phase: 'read', done: i, total: n, label });
    const t0 = performance.now();
    do step(i++);
    while (i < n && ((i & 7) !== 0 || performance.now() - t0 < sliceMs));
    if (i < n) await new Promise<void>((r) => setTimeout(r, 0));
  }
  ctx?.progress?.({ phase: 'read', done: n, total: n, label });
}
