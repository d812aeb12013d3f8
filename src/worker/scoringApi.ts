/**
 * Everything the page asks of the scoring engine, as plain async functions over one core
 * BenchSession. scoring.worker.ts exposes this object with Comlink; the tests call it directly.
 * Large per-case data stays here: the page gets the report, the CaseTable columns (transferred)
 * and one CaseRecord at a time.
 */
import { transfer } from 'comlink';
import {
  ADAPTERS,
  BenchSession,
  computeUncertainty,
  detectCandidates,
  InputError,
  serializeReport,
  singleFileSource,
  stem,
  type BenchmarkId,
  type CaseRecord,
  type CaseTable,
  type DatasetInfo,
  type FileSource,
  type GtCorrection,
  type ModelResult,
  type OptionValue,
  type PredictionInput,
  type Progress,
  type Protocol,
  type ProtocolSpec,
  type QaState,
  type Report,
  type ReportLayout,
  type UncertaintyBlock,
  uncertaintyOptions,
} from '../core';
import type { DemoBundle } from '../core/demo';
import { gtOnlyResult } from '../core/gtCases';
import { lintDataset, type LintReport } from '../core/lint';
import type { Listing } from '../io/listing';
import { buildCaseTable, caseTableTransferables } from './buildCaseTable';
import { caseAnalysisBlob } from './caseAnalysisBlob';
import { changelogMarkdown, countKinds, fixedFindings, gtChangelog, toOriginalNumbering, type GtHealth } from './gtHealth';
import { listingSource } from './listingSource';
import { reportCsv } from './reportCsv';
import { macrotask, UncertaintyRuns, type UncertaintyInput, type UncertaintyProgress } from './uncertaintyRuns';

/** Demo generators, one per benchmark that has one; a missing file just means no demo. */
const DEMOS = import.meta.glob<{ makeDemo: () => Promise<DemoBundle> }>('../core/benchmarks/*/demo.ts');

function demoLoader(id: string) {
  return DEMOS[`../core/benchmarks/${id}/demo.ts`];
}

export type OpenInput = Listing | { demo: BenchmarkId };

export interface OpenedDataset {
  benchmark: BenchmarkId;
  title: string;
  info: DatasetInfo;
  protocols: ProtocolSpec[];
  /** How the page lays out this benchmark's report (the adapter's data; the page holds no adapter). */
  reportLayout: ReportLayout;
  /** The default protocol with its default options (what the first score uses). */
  protocol: Protocol;
  models: string[];
  /** True for the built-in demo (nothing of the user's was read). */
  demo: boolean;
  /**
   * When the folder holds several benchmarks: every candidate, the opened one first (the most
   * confident). Empty otherwise. The page asks which one; opening again with `benchmark` set
   * switches.
   */
  candidates: { benchmark: BenchmarkId; title: string; confidence: number; reason: string }[];
}

export interface ScoreOutcome {
  report: Report;
  /** Secondary per-model numbers the plots use (ModelResult.extra). */
  extras: Record<string, Record<string, unknown>>;
  elapsedMs: number;
}

export type ProgressFn = (p: Progress) => void;

interface State {
  session: BenchSession;
  demo: boolean;
  results: ModelResult[];
  protocol: Protocol | null;
  /** model → case_id → record, built lazily for getCase. */
  index: Map<string, Map<string, CaseRecord>>;
  /** The GT-only cases (no model), built on first use; the GT health view numbers instances as these do. */
  gtCases: Promise<Map<string, CaseRecord>> | null;
  /** The lint of the GT as opened, run once (the basis every corrected lint is compared with). */
  lintBase: Promise<LintReport> | null;
  /** The last "score with my GT corrections": what its intervals are computed on, once asked for. */
  corrected: { dataset: unknown; results: ModelResult[]; protocol: Protocol; block: Promise<UncertaintyBlock | null> | null } | null;
}

/** The GT health run in progress on corrected GT: a newer edit supersedes it. */
let linting: AbortController | null = null;

let state: State | null = null;

/** A prediction set whose content is that of one already loaded. */
export interface DuplicateModel {
  model: string;
  sameAs: string;
}
/** A file of a selection that was not added, and the reader's reason (verdict first). */
export interface RefusedFile {
  file: string;
  message: string;
}
export interface AddOutcome {
  added: string[];
  models: string[];
  duplicates: DuplicateModel[];
  refused: RefusedFile[];
}
let running: AbortController | null = null;

function need(): State {
  if (!state) throw new InputError('no dataset is open');
  return state;
}

/** Prediction reads in progress; cancel stops them together with the score. */
const reading = new Set<AbortController>();

const cancelled = () => new DOMException('cancelled', 'AbortError');

/** The uncertainty block of the last score, computed after it on request (uncertaintyRuns.ts). */
const intervals = new UncertaintyRuns();

/** A new score supersedes the one running (its result would be stale), and running intervals. */
function startScore(): AbortController {
  intervals.stopRunning();
  running?.abort(cancelled());
  running = new AbortController();
  return running;
}

/** Progress callbacks cross a thread: send at most one every 80 ms, plus the last one. */
function throttled(fn: ProgressFn | undefined): ProgressFn | undefined {
  return throttleCalls(fn, (p) => p.done >= p.total);
}

function throttleCalls<A extends unknown[]>(fn: ((...args: A) => unknown) | undefined, isLast: (...args: A) => boolean, everyMs = 80): ((...args: A) => void) | undefined {
  if (!fn) return undefined;
  let last = 0;
  return (...args) => {
    const now = Date.now();
    if (now - last >= everyMs || isLast(...args)) {
      last = now;
      void Promise.resolve(fn(...args)).catch(() => undefined);
    }
  };
}

export const scoringApi = {
  /** Every benchmark of the registry, for the page's lists (the page bundle holds no adapter). */
  async benchmarks(): Promise<{ id: BenchmarkId; description: string }[]> {
    return ADAPTERS.map((a) => ({ id: a.id, description: a.description }));
  },

  /** Benchmarks whose built-in demo exists in this build. */
  async availableDemos(): Promise<string[]> {
    return Object.keys(DEMOS)
      .map((k) => k.split('/').at(-2)!)
      .sort();
  },

  async openDataset(input: OpenInput, benchmark?: BenchmarkId, onProgress?: ProgressFn): Promise<OpenedDataset> {
    state = null;
    intervals.abort();
    const ctx = { progress: throttled(onProgress) };
    let source: FileSource;
    let demoPreds: PredictionInput[] = [];
    let forced = benchmark;
    if ('demo' in input) {
      const load = demoLoader(input.demo);
      if (!load) throw new InputError(`no built-in demo for "${input.demo}" in this build`);
      const bundle = await (await load()).makeDemo();
      source = bundle.source;
      demoPreds = bundle.predictions;
      forced = input.demo;
    } else {
      if (input.files.length === 0) throw new InputError(`"${input.label}" is empty (hidden files are skipped)`);
      source = await listingSource(input);
    }
    // Several benchmarks in one folder: open the most confident, and tell the page all of them.
    const candidates = forced ? [] : await detectCandidates(source);
    if (!forced && candidates.length > 1) forced = candidates[0].adapter.id;
    const session = await BenchSession.open(source, forced, ctx);
    await session.addBundledPredictions(ctx);
    for (const p of demoPreds) await session.addPredictions(p, ctx);
    state = { session, demo: 'demo' in input, results: [], protocol: null, index: new Map(), gtCases: null, lintBase: null, corrected: null };
    return {
      candidates: candidates.length > 1 ? candidates.map((c) => ({ benchmark: c.adapter.id, title: c.adapter.title, confidence: c.detection.confidence, reason: c.detection.reason })) : [],
      benchmark: session.adapter.id,
      title: session.adapter.title,
      info: session.info,
      protocols: [...session.adapter.protocols],
      reportLayout: session.adapter.reportLayout,
      protocol: session.resolveProtocol(),
      models: session.modelNames,
      demo: state.demo,
    };
  },

  /**
   * Adds prediction files (one model each) or one prediction folder; returns every model name.
   * Each file of a selection stands on its own: one that is refused (empty, another benchmark's)
   * is listed in `refused` with its reason and the others are still added — a user who picks five
   * files sees five outcomes. A cancel is all or nothing: the models this call already added are
   * removed again, so the page's replay of model operations stays true (a replay refuses the same
   * files again, being the same bytes).
   */
  async addPredictions(listing: Listing, onProgress?: ProgressFn): Promise<AddOutcome> {
    const s = need();
    const ac = new AbortController();
    reading.add(ac);
    const added: string[] = [];
    const duplicates: DuplicateModel[] = [];
    try {
      const src = await listingSource(listing);
      const inputs: PredictionInput[] =
        listing.kind === 'folder'
          ? [{ source: src, path: '', name: listing.label }]
          : src.list().map((e) => ({ source: singleFileSource(src, e.path), path: e.path.split('/').at(-1)!, name: stem(e.path) }));
      const ctx = { signal: ac.signal, progress: throttled(onProgress) };
      const refused: RefusedFile[] = [];
      for (const input of inputs) {
        ac.signal.throwIfAborted();
        let names: string[];
        try {
          names = await s.session.addPredictions(input, ctx);
        } catch (e) {
          if ((e as Error).name === 'AbortError' || ac.signal.aborted) throw e;
          refused.push({ file: input.path || input.name, message: (e as Error).message });
          continue;
        }
        added.push(...names);
        // Identical content to a set loaded before it (also in this same call) is said. The
        // session hashed the bytes as it read them (the key reviews of predictions use).
        const contents = s.session.modelContents;
        const order = s.session.modelNames;
        for (const name of names) {
          const key = contents[name];
          const same = order.slice(0, order.indexOf(name)).find((m) => key !== '' && contents[m] === key);
          if (same) duplicates.push({ model: name, sameAs: same });
        }
      }
      // A cancel that arrived during the last read still wins (the page was told "cancelled").
      ac.signal.throwIfAborted();
      return { added, models: s.session.modelNames, duplicates, refused };
    } catch (e) {
      for (const name of added) s.session.removeModel(name);
      throw e;
    } finally {
      reading.delete(ac);
    }
  },

  async removeModel(name: string): Promise<string[]> {
    const s = need();
    // The running intervals are of the models before the change (and read the results renamed in place).
    intervals.abort();
    s.session.removeModel(name);
    s.results = s.results.filter((r) => r.model !== name);
    s.index.delete(name);
    return s.session.modelNames;
  },

  /** Model name → content fingerprint of its prediction set (reviews of predictions follow it). */
  async modelContents(): Promise<Record<string, string>> {
    return state ? state.session.modelContents : {};
  },

  async renameModel(from: string, to: string): Promise<string[]> {
    const s = need();
    const name = to.trim();
    if (name === '') throw new InputError('a model name cannot be empty');
    intervals.abort();
    s.session.renameModel(from, name);
    for (const r of s.results) if (r.model === from) r.model = name;
    const idx = s.index.get(from);
    if (idx) {
      s.index.delete(from);
      s.index.set(name, idx);
    }
    return s.session.modelNames;
  },

  async protocols(): Promise<ProtocolSpec[]> {
    return [...need().session.adapter.protocols];
  },

  /**
   * Scores every model under one protocol. Options arrive typed from the page's controls and are
   * validated by the adapter exactly as the CLI's `--option k=v` strings are.
   */
  async score(protocolName: string, options: Record<string, OptionValue>, onProgress?: ProgressFn): Promise<ScoreOutcome> {
    const s = need();
    const ac = startScore();
    const t0 = performance.now();
    try {
      const raw = Object.fromEntries(Object.entries(options).map(([k, v]) => [k, String(v)]));
      const protocol = s.session.resolveProtocol(protocolName, raw);
      const results = await s.session.score(protocol, { signal: ac.signal, progress: throttled(onProgress) });
      ac.signal.throwIfAborted();
      s.results = results;
      s.protocol = protocol;
      s.index = new Map();
      return { report: s.session.report(protocol, results), extras: extrasOf(results), elapsedMs: performance.now() - t0 };
    } finally {
      if (running === ac) running = null;
    }
  },

  /** Stops the score, prediction read or GT health check in progress (each rejects with an AbortError at its next check). */
  async cancel(): Promise<void> {
    intervals.abort();
    running?.abort(cancelled());
    for (const ac of reading) ac.abort(cancelled());
    // The page's cancel waits for every running call, a GT health check among them (the page
    // starts it again): stopped here, it does not make the page replace a worker that obeyed.
    linting?.abort(cancelled());
  },

  async getReport(): Promise<Report | null> {
    const s = need();
    return s.protocol ? s.session.report(s.protocol, s.results) : null;
  },

  /** The case list as columns; the typed arrays are transferred, not copied. */
  async getCaseTable(): Promise<CaseTable> {
    const t = buildCaseTable(need().results);
    return transfer(shareEqualColumns(t), caseTableTransferables(t));
  },

  /**
   * The case list of the GT alone, for a dataset opened without predictions: every case with its
   * facets and GT text, `models` empty (nothing scored). Columns transferred as getCaseTable's.
   */
  async getGtCaseTable(): Promise<CaseTable> {
    const cases = [...(await gtCases(need())).values()];
    const t = buildCaseTable([{ model: '', metrics: {}, counts: {}, warnings: [], cases }]);
    const table: CaseTable = { ...t, models: [], perModel: {} };
    return transfer(shareEqualColumns(table), caseTableTransferables(table));
  },

  /** One case with its GT only (no model): what the GT-only workspace draws. */
  async getGtCase(caseId: string): Promise<CaseRecord | null> {
    return (await gtCases(need())).get(caseId) ?? null;
  },

  /**
   * GT health (shared/specs/lint.md) of the GT with `corrections` applied, its findings in the
   * viewer's numbering (gtHealth.ts), with the findings of the original GT the corrections fixed.
   * A newer call cancels one still running (each GT edit asks again).
   */
  async gtHealth(corrections: GtCorrection[], onProgress?: ProgressFn): Promise<GtHealth> {
    const s = need();
    linting?.abort(cancelled());
    const ac = new AbortController();
    linting = ac;
    try {
      const ctx = { signal: ac.signal, progress: throttled(onProgress) };
      s.lintBase ??= lintDataset(s.session.adapter.id, s.session.dataset, s.session.source, { progress: ctx.progress });
      const shared = s.lintBase.catch((e: unknown) => {
        s.lintBase = null; // a failed first run is not kept: the next call tries again
        throw e;
      });
      // The first check runs on for the next caller; this call stops waiting when cancelled.
      const base = await Promise.race([shared, abortedPromise(ac.signal)]);
      ac.signal.throwIfAborted();
      if (corrections.length === 0) return { benchmark: base.benchmark, dataset: base.dataset, findings: base.findings, counts: base.counts, fixed: [], corrections: 0 };
      const adapter = s.session.adapter;
      if (!adapter.applyCorrections) throw new InputError(`${adapter.title} cannot apply GT corrections`);
      const corrected = await lintDataset(adapter.id, adapter.applyCorrections(s.session.dataset, corrections), s.session.source, ctx);
      const byCase = await gtCases(s);
      const findings = toOriginalNumbering(corrected.findings, corrections, (id) => byCase.get(id)?.gt.length ?? 0);
      return { benchmark: corrected.benchmark, dataset: corrected.dataset, findings, counts: countKinds(findings), fixed: fixedFindings(base.findings, findings), corrections: corrections.length };
    } finally {
      if (linting === ac) linting = null;
    }
  },

  /**
   * The corrected GT in the benchmark's own files (exportGroundTruth) plus a changelog beside
   * them: GT-CHANGELOG.md for people, gt-changelog.json for tools — each changed instance, what
   * changed, and the GT health findings that change fixed.
   */
  async exportCorrectedGt(corrections: GtCorrection[]): Promise<Record<string, string>> {
    const s = need();
    const files = await scoringApi.exportGroundTruth(corrections);
    const health = await scoringApi.gtHealth(corrections);
    const byCase = await gtCases(s);
    const entries = gtChangelog(corrections, health.fixed, (id) => byCase.get(id)?.gt);
    const json = { schema: 'benchlens.gt-changelog/1', benchmark: s.session.adapter.id, corrections: corrections.length, fixed: health.fixed.length, remaining: health.findings.length, changes: entries };
    return {
      ...files,
      'GT-CHANGELOG.md': changelogMarkdown(s.session.adapter.title, entries, health.fixed.length, health.findings.length),
      'gt-changelog.json': JSON.stringify(json, null, 2) + '\n',
    };
  },

  async getCase(model: string, caseId: string): Promise<CaseRecord | null> {
    return caseIndex(need(), model)?.get(caseId) ?? null;
  },

  /** The same case under every scored model (the viewer's side-by-side). */
  async getCases(caseId: string): Promise<Record<string, CaseRecord>> {
    const s = need();
    const out: Record<string, CaseRecord> = {};
    for (const r of s.results) {
      const c = caseIndex(s, r.model)?.get(caseId);
      if (c) out[r.model] = c;
    }
    return out;
  },

  /**
   * Raw bytes of an image of the opened dataset (for the viewer and the thumbnails); transferred.
   * `path` is a case's `image_file`: a file in the opened folder, or a virtual path only the
   * adapter can resolve (PulseBench-Select's `parquet:<file>#<row>` page images), so an adapter
   * with `imageBytes` is asked first and the folder read only when it has nothing.
   */
  async getImageBytes(path: string): Promise<Uint8Array> {
    const s = need();
    const bytes = (await adapterImageBytes(s, path)) ?? (await s.session.source.read(path));
    // A copy: the source may hand out its own buffer (the demo's MemorySource does), and a
    // transfer would detach it for every later read.
    const copy = bytes.slice();
    return transfer(copy, [copy.buffer]);
  },

  /**
   * The uncertainty block of the last score (null under `ci=off`), computed in chunks after the
   * report; rejects with an AbortError when a new score, a model change or cancel stops it.
   * `onProgress(done, total)` at most every 250 ms, plus the last.
   */
  async uncertainty(onProgress?: UncertaintyProgress): Promise<UncertaintyBlock | null> {
    const s = need();
    if (!s.protocol) throw new InputError('nothing scored yet');
    // A status line needs no more than 4 updates a second; each is a task on the page.
    return intervals.get(
      uncertaintyInput(s, s.protocol),
      throttleCalls(onProgress, (done: number, total: number) => done >= total, 250),
    );
  },

  /**
   * report.json as the CLI writes it for the same inputs: with the uncertainty block (waiting
   * for it when it is still being computed) unless the protocol has `ci=off`.
   */
  async exportReport(): Promise<string> {
    const s = need();
    const r = await scoringApi.getReport();
    if (!r || !s.protocol) throw new InputError('nothing scored yet');
    const block = await intervals.get(uncertaintyInput(s, s.protocol));
    return serializeReport(block ? { ...r, uncertainty: block } : r);
  },

  /**
   * case_analysis.jsonl of the last score with the reviews merged in, as a Blob written line by
   * line (a multi-GB export never becomes one string; see caseAnalysisBlob). `qaByKey` comes from
   * the page's stored reviews, keyed by caseAnalysisBlob's qaKey.
   */
  async exportCaseAnalysis(qaByKey: ReadonlyMap<string, QaState> = new Map()): Promise<Blob> {
    const s = need();
    return caseAnalysisBlob(s.session.adapter.id, s.results, qaByKey);
  },

  /** The report table as CSV: one row per metric, one column per model, full precision. */
  async exportCsv(): Promise<string> {
    const r = await scoringApi.getReport();
    if (!r) throw new InputError('nothing scored yet');
    return reportCsv(r);
  },

  /**
   * "What if the GT were right": the same protocol on a corrected copy of the dataset. Its
   * intervals follow on request (correctedUncertainty), as the official report's do: the numbers
   * show first.
   */
  async scoreCorrected(corrections: GtCorrection[], onProgress?: ProgressFn): Promise<Report> {
    const s = need();
    const adapter = s.session.adapter;
    if (!adapter.applyCorrections) throw new InputError(`${adapter.title} cannot rescore with corrected ground truth`);
    if (!s.protocol) throw new InputError('nothing scored yet');
    const protocol = s.protocol;
    const dataset = adapter.applyCorrections(s.session.dataset, corrections);
    const results = await s.session.score(protocol, { progress: throttled(onProgress) }, undefined, dataset);
    s.corrected = { dataset, results, protocol, block: null };
    return s.session.report(protocol, results);
  },

  /**
   * The uncertainty block of the last scoreCorrected (null under ci=off, or before any): the same
   * options and draws as the official report's, on the corrected GT's units, so the corrected
   * numbers carry their intervals as the official ones do. Computed once, yielding between
   * chunks as the official run does (the page's other calls are answered meanwhile).
   */
  correctedUncertainty(): Promise<UncertaintyBlock | null> {
    const s = need();
    const c = s.corrected;
    if (!c) return Promise.resolve(null);
    const opts = uncertaintyOptions(c.protocol);
    c.block ??= opts ? computeUncertainty(s.session.adapter.id, c.dataset, c.results, c.protocol, opts, { yieldEvery: macrotask }) : Promise.resolve(null);
    return c.block;
  },

  /**
   * The (corrected) ground truth written back in the benchmark's own format (file path → text),
   * so it can be fed to the official evaluator. The original dataset is never modified.
   */
  async exportGroundTruth(corrections: GtCorrection[]): Promise<Record<string, string>> {
    const s = need();
    const adapter = s.session.adapter;
    if (!adapter.exportGroundTruth) throw new InputError(`${adapter.title} cannot export ground truth`);
    if (corrections.length > 0 && !adapter.applyCorrections) throw new InputError(`${adapter.title} cannot apply GT corrections`);
    const dataset = corrections.length > 0 ? adapter.applyCorrections!(s.session.dataset, corrections) : s.session.dataset;
    return adapter.exportGroundTruth(dataset);
  },

  /** Extra tables a dataset ships (e.g. PulseBench's leaderboard), when the adapter exposes them. */
  async getLeaderboard(): Promise<Record<string, unknown>[] | null> {
    const d = need().session.dataset as { leaderboard?: unknown };
    return Array.isArray(d.leaderboard) ? (d.leaderboard as Record<string, unknown>[]) : null;
  },
};

export type ScoringApi = typeof scoringApi;

/** Rejects with the signal's reason once it aborts (never resolves). */
function abortedPromise(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason as Error);
    else signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
  });
}

function gtCases(s: State): Promise<Map<string, CaseRecord>> {
  s.gtCases ??= gtOnlyResult(s.session.adapter, s.session.dataset, s.session.resolveProtocol()).then((r) => new Map(r.cases.map((c) => [c.case_id, c])));
  return s.gtCases;
}

function uncertaintyInput(s: State, protocol: Protocol): UncertaintyInput {
  const units = s.session.adapter.reportLayout.units;
  return {
    benchmark: s.session.adapter.id,
    dataset: s.session.dataset,
    results: s.results,
    protocol,
    modelContents: s.session.modelContents,
    caseOptions: [units?.caseOption, units?.caseThresholdOption].filter((k): k is string => k !== undefined),
  };
}

function caseIndex(s: State, model: string): Map<string, CaseRecord> | undefined {
  let idx = s.index.get(model);
  if (!idx) {
    const r = s.results.find((x) => x.model === model);
    if (!r) return undefined;
    idx = new Map(r.cases.map((c) => [c.case_id, c]));
    s.index.set(model, idx);
  }
  return idx;
}

/** The optional `imageBytes(dataset, caseIdOrImageFile)` some adapters add to the contract. */
type ImageBytesFn = (dataset: unknown, caseIdOrImageFile: string) => Promise<Uint8Array | null>;

async function adapterImageBytes(s: State, path: string): Promise<Uint8Array | null> {
  const fn = (s.session.adapter as { imageBytes?: ImageBytesFn }).imageBytes;
  if (typeof fn !== 'function') return null;
  return fn.call(s.session.adapter, s.session.dataset, path);
}

/**
 * Where a string column equals an earlier one element for element (image files = image paths in
 * most datasets), send one array for both: structured clone writes a shared array once, so the
 * page deserialises — and garbage-collects — 10,000s fewer strings in the task that receives the
 * table (issue 6). The page only reads these columns.
 */
function shareEqualColumns(t: CaseTable): CaseTable {
  const same = (a: readonly (string | null)[], b: readonly (string | null)[]) => a.length === b.length && a.every((v, i) => v === b[i]);
  const imagePaths = same(t.imagePaths, t.caseIds) ? t.caseIds : t.imagePaths;
  const imageFiles = same(t.imageFiles, imagePaths) ? imagePaths : t.imageFiles;
  return { ...t, imagePaths, imageFiles };
}

function extrasOf(results: readonly ModelResult[]): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const r of results) if (r.extra) out[r.model] = r.extra;
  return out;
}

/** For tests: forget the open dataset. */
export function resetScoringApi(): void {
  intervals.abort();
  running?.abort();
  running = null;
  for (const ac of reading) ac.abort();
  reading.clear();
  linting?.abort();
  linting = null;
  state = null;
}
