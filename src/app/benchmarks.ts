/**
 * Benchmark names as the page shows them. Kept here rather than imported from the core registry
 * so the page bundle does not pull in every adapter: scoring code lives in the worker only.
 */
import type { BenchmarkId } from '../core';

export const BENCHMARKS: readonly { id: BenchmarkId; name: string }[] = [
  { id: 'ltb', name: 'LTB — long-tailed scene text detection' },
  { id: 'chronicles', name: 'Chronicles-OCR — 7 Chinese scripts, 4 tasks' },
  { id: 'tabench', name: 'TABench — text anchoring (R2T / T2R)' },
  { id: 'gansulishuzhi', name: 'gansulishuzhi — figure boxes on scanned pages' },
  { id: 'pulsebench-select', name: 'PulseBench-Select — selected options in forms' },
];

export function isBenchmarkId(v: string | null): v is BenchmarkId {
  return v !== null && BENCHMARKS.some((b) => b.id === v);
}
