/**
 * The worker's uncertainty computations (shared/specs/uncertainty.md): at most one runs, for the
 * results of the last score; the page's request, the export and a repeated request share it.
 * A new score, a renamed or removed model, or the page's Cancel aborts it (the engine checks the
 * signal between chunks, which it ends by awaiting `yieldEvery`: a macrotask, so the abort
 * message — and every other call of the page, e.g. a case for the viewer — is handled meanwhile).
 */
import { computeUncertainty, uncertaintyOptions, type BenchmarkId, type ModelResult, type Protocol, type UncertaintyBlock } from '../core';

export interface UncertaintyInput {
  benchmark: BenchmarkId;
  dataset: unknown;
  results: readonly ModelResult[];
  protocol: Protocol;
  /** Model name → content fingerprint: the same name with other predictions is another block. */
  modelContents: Readonly<Record<string, string>>;
  /**
   * Protocol options that only pick which cases the case list shows and change no metric (the
   * layout's caseOption / caseThresholdOption: LTB case_split, case_threshold). The block does
   * not depend on them, so opening a split's cases reuses it instead of recomputing.
   */
  caseOptions: readonly string[];
}

export type UncertaintyProgress = (done: number, total: number) => void;

const cancelled = () => new DOMException('cancelled', 'AbortError');

/** What the block is a function of (see UncertaintyInput.caseOptions). */
export function uncertaintyKey(input: UncertaintyInput): string {
  const options = Object.entries(input.protocol.options)
    .filter(([k]) => !input.caseOptions.includes(k))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([input.benchmark, input.protocol.name, options, input.results.map((r) => [r.model, input.modelContents[r.model] ?? ''])]);
}

/** A macrotask (not setTimeout, which browsers clamp to 4 ms once nested). */
export function macrotask(): Promise<void> {
  return new Promise((resolve) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => {
      ch.port1.close();
      resolve();
    };
    ch.port2.postMessage(null);
  });
}

interface Run {
  key: string;
  ac: AbortController;
  promise: Promise<UncertaintyBlock>;
  listeners: Set<UncertaintyProgress>;
  /** The computation has ended (a block or an error). */
  settled: boolean;
}

export class UncertaintyRuns {
  private current: Run | null = null;

  /** The block of `input` (null under `ci=off`): the running or finished computation when it is the same, else a new one. */
  get(input: UncertaintyInput, onProgress?: UncertaintyProgress): Promise<UncertaintyBlock | null> {
    const opts = uncertaintyOptions(input.protocol);
    if (!opts) return Promise.resolve(null);
    const key = uncertaintyKey(input);
    const cur = this.current;
    if (cur && cur.key === key && !cur.ac.signal.aborted) {
      if (onProgress) cur.listeners.add(onProgress);
      return cur.promise;
    }
    this.abort();
    const ac = new AbortController();
    const listeners = new Set<UncertaintyProgress>(onProgress ? [onProgress] : []);
    const progress = (done: number, total: number) => {
      for (const l of listeners) l(done, total);
    };
    const promise = computeUncertainty(input.benchmark, input.dataset, input.results, input.protocol, opts, { signal: ac.signal, progress, yieldEvery: macrotask }).then((block) => {
      // An abort that arrived after the last chunk still wins: the caller asked not to see it.
      ac.signal.throwIfAborted();
      return block;
    });
    const run: Run = { key, ac, promise, listeners, settled: false };
    this.current = run;
    // A rejection nobody awaits (an aborted run) is not an error of the worker.
    promise.then(
      () => (run.settled = true),
      () => (run.settled = true),
    );
    return promise;
  }

  /**
   * Stops a computation still running (a new score started: its results may not be these). A
   * finished block is kept: the next request reuses it only when its key still matches.
   */
  stopRunning(): void {
    if (this.current && !this.current.settled) this.abort();
  }

  /** Stops the running computation (it rejects with an AbortError at its next check) and forgets the last block. */
  abort(): void {
    this.current?.ac.abort(cancelled());
    this.current = null;
  }
}
