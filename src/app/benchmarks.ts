/**
 * The benchmarks the page can offer, as the worker's registry lists them: the page bundle holds
 * no adapter (scoring code lives in the worker only), so it asks once and keeps the answer.
 */
import { useEffect, useState } from 'react';
import type { BenchmarkId } from '../core';
import { scoringClient } from '../worker/client';

export interface BenchmarkEntry {
  id: BenchmarkId;
  description: string;
}

let listed: Promise<BenchmarkEntry[]> | null = null;

/** The registry's benchmarks (empty until the worker answers; empty if it cannot). */
export function useBenchmarkList(): BenchmarkEntry[] {
  const [list, setList] = useState<BenchmarkEntry[]>([]);
  useEffect(() => {
    let live = true;
    listed ??= scoringClient()
      .benchmarks()
      .catch(() => []);
    void listed.then((l) => live && setList(l));
    return () => {
      live = false;
    };
  }, []);
  return list;
}

/**
 * A name that may be a benchmark id (`#demo=<id>`); the worker, which knows the registry, says
 * "no built-in demo for …" when it is not one.
 */
export function isBenchmarkId(v: string | null): v is BenchmarkId {
  return v !== null && /^[a-z0-9][a-z0-9_-]*$/.test(v);
}
