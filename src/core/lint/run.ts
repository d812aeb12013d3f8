/** What each benchmark's lint returns, and the chunking that keeps a worker responsive. */
import type { RunContext } from '../model';
import type { LintFinding } from './types';

export interface BenchmarkLint {
  findings: LintFinding[];
  /** Cases as case_analysis.jsonl counts them, and GT instances over all of them. */
  cases: number;
  instances: number;
}

/** Items per chunk between yields (each chunk is a few ms of work: far under the 50 ms budget). */
export const CHUNK = 500;

/**
 * Runs `step(i)` for i in [0, n) in chunks, yielding to the event loop between chunks (so a
 * worker can take an abort message) and reporting progress.
 */
export async function inChunks(n: number, ctx: RunContext | undefined, label: string, step: (i: number) => void, chunk = CHUNK): Promise<void> {
  for (let start = 0; start < n; start += chunk) {
    ctx?.signal?.throwIfAborted();
    ctx?.progress?.({ phase: 'read', done: start, total: n, label });
    const end = Math.min(n, start + chunk);
    for (let i = start; i < end; i++) step(i);
    if (end < n) await new Promise<void>((r) => setTimeout(r, 0));
  }
  ctx?.progress?.({ phase: 'read', done: n, total: n, label });
}
