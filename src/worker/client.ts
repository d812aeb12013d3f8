/**
 * The page's handle on the scoring worker. The page imports only the worker API's *type*; this
 * wrapper adds progress callbacks and a cancel that always works: it asks the worker to abort,
 * and if the worker is stuck in a long synchronous stretch it terminates it, starts a fresh one
 * and replays what the user had opened (the dataset, the models, the last finished score).
 */
import { proxy, wrap, type Remote } from 'comlink';
import type { BenchmarkId, CaseRecord, CaseTable, GtCorrection, OptionValue, Progress, QaState, Report, UncertaintyBlock } from '../core';
import type { Listing } from '../io/listing';
import type { AddOutcome, OpenedDataset, OpenInput, ScoreOutcome, ScoringApi } from './scoringApi';
import { scoringWorker } from './spawn';

export type { AddOutcome, DuplicateModel, OpenedDataset, OpenInput, RefusedFile, ScoreOutcome } from './scoringApi';
import type { GtHealth } from './gtHealth';
export type { GtHealth, GtHealthFinding } from './gtHealth';

type Op = (api: Remote<ScoringApi>) => Promise<unknown>;
type Running = { done: Promise<void>; reject: (e: Error) => void };

/** How long a cancel waits for the worker to stop on its own before replacing it. */
const CANCEL_GRACE_MS = 400;

export class CancelledError extends Error {
  constructor() {
    super('cancelled');
    this.name = 'AbortError';
  }
}

export class ScoringClient {
  private worker!: Worker;
  private api!: Remote<ScoringApi>;
  /** What rebuilds the worker's state after a restart: open, model edits, last finished score. */
  private ops: Op[] = [];
  private lastScore: Op | null = null;
  /** The cancellable calls in flight (a score, prediction reads). */
  private running = new Set<Running>();
  /** Settles when a restarted worker has been given its state back; every call waits for it. */
  private ready: Promise<void> = Promise.resolve();

  constructor(private readonly makeWorker: () => Worker = defaultWorker) {
    this.start();
  }

  private start() {
    this.worker = this.makeWorker();
    this.api = wrap<ScoringApi>(this.worker);
  }

  /** Every call goes through here, so none reaches a replacement worker before its replay is done. */
  private async call<T>(fn: (api: Remote<ScoringApi>) => Promise<T>): Promise<T> {
    await this.ready;
    return fn(this.api);
  }

  benchmarks(): Promise<{ id: BenchmarkId; description: string }[]> {
    return this.call((api) => api.benchmarks());
  }

  availableDemos(): Promise<string[]> {
    return this.call((api) => api.availableDemos());
  }

  async open(input: OpenInput, benchmark?: BenchmarkId, onProgress?: (p: Progress) => void): Promise<OpenedDataset> {
    const out = await this.call((api) => api.openDataset(input, benchmark, onProgress ? proxy(onProgress) : undefined));
    this.ops = [(api) => api.openDataset(input, benchmark)];
    this.lastScore = null;
    return out;
  }

  /**
   * Cancellable like score. A cancelled add never enters the replay list, and the worker drops
   * whatever it had read of it, so the models are exactly as before.
   */
  addPredictions(listing: Listing, onProgress?: (p: Progress) => void): Promise<AddOutcome> {
    return this.cancellable(
      (api) => api.addPredictions(listing, onProgress ? proxy(onProgress) : undefined),
      () => this.ops.push((api) => api.addPredictions(listing)),
    );
  }

  async removeModel(name: string): Promise<string[]> {
    const out = await this.call((api) => api.removeModel(name));
    this.ops.push((api) => api.removeModel(name));
    return out;
  }

  async renameModel(from: string, to: string): Promise<string[]> {
    const out = await this.call((api) => api.renameModel(from, to));
    this.ops.push((api) => api.renameModel(from, to));
    return out;
  }

  modelContents(): Promise<Record<string, string>> {
    return this.call((api) => api.modelContents());
  }

  /** Rejects with an AbortError (name 'AbortError') when cancelled. */
  score(protocolName: string, options: Record<string, OptionValue>, onProgress?: (p: Progress) => void): Promise<ScoreOutcome> {
    return this.cancellable(
      (api) => api.score(protocolName, options, onProgress ? proxy(onProgress) : undefined),
      () => (this.lastScore = (api) => api.score(protocolName, options)),
    );
  }

  /**
   * The last score's uncertainty block (null under `ci=off`), computed by the worker after the
   * report. Cancellable like a score (a stuck worker is replaced, and this rejects); never replayed:
   * a restarted worker computes it again when asked.
   */
  uncertainty(onProgress?: (done: number, total: number) => void): Promise<UncertaintyBlock | null> {
    return this.cancellable(
      (api) => api.uncertainty(onProgress ? proxy(onProgress) : undefined),
      () => undefined,
    );
  }

  /**
   * Runs a call that cancel() can stop; `remember` records it for the replay only once it has
   * finished (a cancelled or failed call leaves no trace in the rebuilt worker).
   */
  private cancellable<T>(fn: (api: Remote<ScoringApi>) => Promise<T>, remember: () => void): Promise<T> {
    let reject!: (e: Error) => void;
    const cancelled = new Promise<never>((_, rej) => (reject = rej));
    const done = Promise.race([this.call(fn), cancelled]).then((out) => {
      remember();
      return out;
    });
    const entry: Running = { done: done.then(() => undefined, () => undefined), reject };
    this.running.add(entry);
    void done.finally(() => this.running.delete(entry)).catch(() => undefined);
    return done;
  }

  /** Stops the running score and prediction reads; resolves once the worker is usable again. */
  async cancel(): Promise<void> {
    const jobs = [...this.running];
    if (jobs.length === 0) return;
    // A call made while this cancel is deciding (the user picks another protocol at once) waits
    // for its outcome: sent now, it could reach the worker about to be terminated and never settle.
    let release!: () => void;
    this.ready = new Promise<void>((r) => (release = r));
    try {
      void this.api.cancel().catch(() => undefined);
      const allDone = Promise.all(jobs.map((j) => j.done));
      const stopped = await Promise.race([allDone.then(() => true), sleep(CANCEL_GRACE_MS).then(() => false)]);
      if (stopped) return;
      // The worker did not reach an abort check in time: replace it, and hold every other call
      // until the new one has the dataset, the models and the last finished score back.
      for (const j of jobs) j.reject(new CancelledError());
      this.worker.terminate();
      this.start();
      const api = this.api;
      const ops = [...this.ops];
      const lastScore = this.lastScore;
      await (async () => {
        for (const op of ops) await op(api);
        if (lastScore) await lastScore(api);
      })().catch((e: unknown) => {
        // The calls that follow report their own errors (e.g. "no dataset is open").
        console.error('benchlens: could not restore the scoring worker after cancel', e);
      });
    } finally {
      release();
    }
  }

  getReport(): Promise<Report | null> {
    return this.call((api) => api.getReport());
  }
  getCaseTable(): Promise<CaseTable> {
    return this.call((api) => api.getCaseTable());
  }
  getCase(model: string, caseId: string): Promise<CaseRecord | null> {
    return this.call((api) => api.getCase(model, caseId));
  }
  getCases(caseId: string): Promise<Record<string, CaseRecord>> {
    return this.call((api) => api.getCases(caseId));
  }
  getImageBytes(path: string): Promise<Uint8Array> {
    return this.call((api) => api.getImageBytes(path));
  }
  exportReport(): Promise<string> {
    return this.call((api) => api.exportReport());
  }
  /** case_analysis.jsonl as a Blob (reviews merged in the worker; the page never parses it). */
  exportCaseAnalysis(qaByKey: ReadonlyMap<string, QaState> = new Map()): Promise<Blob> {
    return this.call((api) => api.exportCaseAnalysis(qaByKey));
  }
  exportCsv(): Promise<string> {
    return this.call((api) => api.exportCsv());
  }
  scoreCorrected(corrections: GtCorrection[], onProgress?: (p: Progress) => void): Promise<Report> {
    return this.call((api) => api.scoreCorrected(corrections, onProgress ? proxy(onProgress) : undefined));
  }
  /** The intervals of the last scoreCorrected's numbers (null under ci=off). */
  correctedUncertainty(): Promise<UncertaintyBlock | null> {
    return this.call((api) => api.correctedUncertainty());
  }
  exportGroundTruth(corrections: GtCorrection[]): Promise<Record<string, string>> {
    return this.call((api) => api.exportGroundTruth(corrections));
  }

  /** The corrected GT files plus GT-CHANGELOG.md and gt-changelog.json (scoringApi.exportCorrectedGt). */
  exportCorrectedGt(corrections: GtCorrection[]): Promise<Record<string, string>> {
    return this.call((api) => api.exportCorrectedGt(corrections));
  }

  /** The case list of the GT alone (a dataset opened without predictions). */
  getGtCaseTable(): Promise<CaseTable> {
    return this.call((api) => api.getGtCaseTable());
  }

  getGtCase(caseId: string): Promise<CaseRecord | null> {
    return this.call((api) => api.getGtCase(caseId));
  }

  /** GT health of the GT with these corrections applied; a newer call supersedes a running one. */
  gtHealth(corrections: GtCorrection[], onProgress?: (p: Progress) => void): Promise<GtHealth> {
    // Among the running calls, so a worker replaced by cancel() rejects it instead of leaving it
    // unanswered forever (the page then checks again on the new worker).
    return this.cancellable(
      (api) => api.gtHealth(corrections, onProgress ? proxy(onProgress) : undefined),
      () => undefined,
    );
  }
  getLeaderboard(): Promise<Record<string, unknown>[] | null> {
    return this.call((api) => api.getLeaderboard());
  }

  dispose(): void {
    this.worker.terminate();
  }
}

function defaultWorker(): Worker {
  return scoringWorker();
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

let shared: ScoringClient | null = null;

/** The page's one scoring client (created on first use, so tests and SSR never start a worker). */
export function scoringClient(): ScoringClient {
  shared ??= new ScoringClient();
  return shared;
}
