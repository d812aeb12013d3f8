/**
 * A scoring session: one dataset, any number of models, one protocol at a time. The CLI, the
 * worker and the tests all drive scoring through this class, so the numbers cannot drift apart.
 */
import { ADAPTERS, adapterFor } from './benchmarks/registry';
import { buildReport, type Report } from './report';
import { caseLine, serializeCaseLine } from './caseExport';
import { sniffPredictions } from './benchmarks/sniff';
import { fingerprintingSource } from './fingerprint';
import { computeSuspects } from './errors/suspects';
import { basename, type FileSource } from './io/fileSource';
import {
  InputError,
  type BenchmarkAdapter,
  type BenchmarkId,
  type DatasetInfo,
  type Detection,
  type LoadedPredictions,
  type ModelResult,
  type OptionValue,
  type PredictionInput,
  type Protocol,
  type RunContext,
} from './model';

export interface DetectOutcome {
  adapter: BenchmarkAdapter;
  detection: Detection;
}

/** Tries every benchmark; the most confident detector wins. */
export async function detectBenchmark(src: FileSource): Promise<DetectOutcome | null> {
  let best: DetectOutcome | null = null;
  for (const adapter of ADAPTERS) {
    const d = await adapter.detect(src);
    if (d && (!best || d.confidence > best.detection.confidence)) best = { adapter, detection: d };
  }
  return best;
}

/** Detections at or above this confidence are real candidates: a folder with two of them asks. */
export const CANDIDATE_CONFIDENCE = 0.5;

/**
 * Every benchmark whose detector is at least `min` sure, most confident first (ties in registry
 * order) — a folder that holds several benchmarks lets the user choose instead of opening the
 * best one silently. detectBenchmark keeps returning the best alone (the CLI's choice).
 */
export async function detectCandidates(src: FileSource, min = CANDIDATE_CONFIDENCE): Promise<DetectOutcome[]> {
  const out: DetectOutcome[] = [];
  for (const adapter of ADAPTERS) {
    const d = await adapter.detect(src);
    if (d && d.confidence >= min) out.push({ adapter, detection: d });
  }
  return out.sort((a, b) => b.detection.confidence - a.detection.confidence);
}

/** The sentence the page and the CLI show when no benchmark was recognised. */
export function detectionFailureMessage(src: FileSource): string {
  const what = ADAPTERS.map((a) => `${a.title}: ${a.expects}`).join('; ');
  return `no recognisable benchmark in "${src.label}" (${src.list().length} files). Looked for — ${what}`;
}

export class BenchSession {
  private readonly models = new Map<string, LoadedPredictions>();
  /** Model name → fingerprint of the prediction set's content (what its reviews are keyed by). */
  private readonly contents = new Map<string, string>();
  private constructor(
    readonly adapter: BenchmarkAdapter,
    readonly dataset: { info: DatasetInfo },
    readonly source: FileSource,
  ) {}

  static async open(src: FileSource, benchmark?: BenchmarkId, ctx?: RunContext): Promise<BenchSession> {
    let adapter: BenchmarkAdapter;
    if (benchmark) {
      adapter = adapterFor(benchmark);
    } else {
      const found = await detectBenchmark(src);
      if (!found) throw new InputError(detectionFailureMessage(src));
      adapter = found.adapter;
    }
    const dataset = await adapter.loadDataset(src, ctx);
    // What the folder listing skipped (links out of the folder) comes first among the warnings.
    if (src.warnings?.length) dataset.info.warnings.unshift(...src.warnings);
    return new BenchSession(adapter, dataset, src);
  }

  get info(): DatasetInfo {
    return this.dataset.info;
  }

  get modelNames(): string[] {
    return [...this.models.keys()];
  }

  /**
   * Prediction sets shipped in the dataset folder itself (infer_results/, runs/). One that is
   * refused (e.g. an empty results.jsonl) does not stop the dataset from opening: its reason is
   * added to the dataset's warnings and the other sets load.
   */
  async addBundledPredictions(ctx?: RunContext): Promise<string[]> {
    const added: string[] = [];
    for (const input of this.adapter.bundledPredictions(this.source)) {
      try {
        added.push(...(await this.addPredictions(input, ctx)));
      } catch (e) {
        if (!(e instanceof InputError)) throw e;
        this.dataset.info.warnings.push(`bundled predictions not loaded: ${e.message}`);
      }
    }
    return added;
  }

  /**
   * Loads a prediction file or folder; returns the model names it added (renamed when taken).
   * Refuses (InputError, nothing added) an input the adapter cannot read or in which no record
   * joins the dataset, naming the file and, when it looks like one, the benchmark it is for.
   */
  async addPredictions(input: PredictionInput, ctx?: RunContext): Promise<string[]> {
    let loaded: LoadedPredictions[];
    // The bytes are hashed as the adapter reads them (no second read of a big file).
    const hashed = fingerprintingSource(input.source, input.path);
    try {
      loaded = await this.adapter.loadPredictions(this.dataset, { ...input, source: hashed.source }, ctx);
    } catch (e) {
      if ((e as Error).name === 'AbortError') throw e;
      // An unreadable prediction file is a user problem, not a crash: name the file and why.
      const why = e instanceof InputError ? e.message : `prediction ${input.name}: ${(e as Error).message}`;
      throw new InputError(await this.refusal(input, oneLine(why)));
    }
    for (const p of loaded) {
      const use = this.adapter.predictionUse?.(this.dataset, p);
      if (use && use.usable === 0) {
        throw new InputError(await this.refusal(input, oneLine(`prediction ${use.file}: nothing to score — ${use.why}`)));
      }
    }
    const names: string[] = [];
    const content = hashed.fingerprint();
    for (const p of loaded) {
      // One input holding several models (a folder of runs) names each by content + its own name.
      const key = loaded.length === 1 ? content : `${content}:${p.model}`;
      if (input.source.warnings?.length) p.warnings.unshift(...input.source.warnings);
      let name = p.model;
      for (let i = 2; this.models.has(name); i++) name = `${p.model}-${i}`;
      p.model = name;
      this.models.set(name, p);
      this.contents.set(name, key);
      names.push(name);
    }
    return names;
  }

  /**
   * The refusal of an input, verdict first: when the input looks like another benchmark's file (or
   * like ground truth) that is what the user needs to read first ("Not LTB predictions:
   * qwen.jsonl is a TABench predictions file"), and the reader's own reason (malformed counts,
   * first bad line) follows after " — " as the detail. Still one line: the CLI prints it as is.
   */
  private async refusal(input: PredictionInput, why: string): Promise<string> {
    let s;
    try {
      s = await sniffPredictions(input);
    } catch {
      return why; // naming the benchmark is a courtesy; the refusal stands without it
    }
    if (!s || (s.benchmark === this.adapter.id && !s.notPredictions)) return why;
    const file = basename(input.path) || input.name;
    const verdict = s.benchmark === this.adapter.id ? 'Not predictions' : `Not ${this.adapter.title} predictions`;
    // "…, not predictions" would repeat the verdict.
    const what = s.what.replace(/, not (predictions|a model's results)$/, '');
    return `${verdict}: ${file} is ${what} — ${withoutFilePrefix(why, [file, input.name])}`;
  }

  removeModel(name: string): void {
    this.models.delete(name);
    this.contents.delete(name);
  }

  /** Model name → content fingerprint of its prediction set, for every loaded model. */
  get modelContents(): Record<string, string> {
    return Object.fromEntries([...this.models.keys()].map((n) => [n, this.contents.get(n) ?? '']));
  }

  renameModel(from: string, to: string): void {
    const p = this.models.get(from);
    if (!p) throw new InputError(`no model named "${from}"`);
    if (from === to) return;
    if (this.models.has(to)) throw new InputError(`a model named "${to}" exists already`);
    const entries = [...this.models.entries()].map(([k, v]) => (k === from ? ([to, v] as const) : ([k, v] as const)));
    this.models.clear();
    for (const [k, v] of entries) this.models.set(k, v);
    p.model = to;
    const c = this.contents.get(from);
    this.contents.delete(from);
    if (c !== undefined) this.contents.set(to, c);
  }

  resolveProtocol(name?: string, options: Record<string, string> = {}): Protocol {
    return this.adapter.resolveProtocol(name, options);
  }

  /** `dataset` defaults to the opened one; pass a corrected copy (adapter.applyCorrections) to score "what if". */
  async score(
    protocol: Protocol,
    ctx?: RunContext,
    only?: readonly string[],
    dataset: { info: DatasetInfo } = this.dataset,
  ): Promise<ModelResult[]> {
    const out: ModelResult[] = [];
    for (const [name, preds] of this.models) {
      if (only && !only.includes(name)) continue;
      ctx?.signal?.throwIfAborted();
      const r = await this.adapter.score(dataset, preds, protocol, ctx);
      r.model = name;
      out.push(r);
    }
    return out;
  }

  report(protocol: Protocol, results: readonly ModelResult[]): Report {
    const suspects = results.some((r) => r.diagnostics) ? computeSuspects(results) : undefined;
    return buildReport(
      this.adapter.id,
      withSettledOptions(protocol, results),
      { cases: this.info.cases, images: this.info.images, warnings: this.info.warnings },
      results,
      suspects,
    );
  }

  caseLines(results: readonly ModelResult[]): string[] {
    return [...this.eachCaseLine(results)];
  }

  /** case_analysis.jsonl one line at a time, so a multi-GB export is written without being held. */
  *eachCaseLine(results: readonly ModelResult[]): Generator<string> {
    for (const r of results) for (const c of r.cases) yield serializeCaseLine(caseLine(this.adapter.id, r.model, c));
  }
}

/**
 * "prediction p/a.jsonl: nothing to score — …" → "nothing to score — …" once the verdict has named
 * the file (readers name it with or without its folder).
 */
function withoutFilePrefix(why: string, names: string[]): string {
  const m = /^(?:prediction (?:file )?)?([^:]+): /.exec(why);
  if (!m) return why;
  const named = m[1];
  return names.some((n) => n !== '' && (named === n || named.endsWith(`/${n}`))) ? why.slice(m[0].length) : why;
}

/** The CLI prints one line: a reason that quotes a file's text must not break it. */
function oneLine(s: string): string {
  return s.replace(/\s*[\r\n]+\s*/g, ' ');
}

/**
 * The protocol as it was applied: options a model settled while scoring (ModelResult.settledOptions)
 * replace the requested value; when models settled differently, the distinct values are listed,
 * sorted and comma-separated (e.g. TABench `coords: "abs,rel1000"`).
 */
export function withSettledOptions(protocol: Protocol, results: readonly ModelResult[]): Protocol {
  const seen = new Map<string, Set<string>>();
  const first = new Map<string, OptionValue>();
  for (const r of results) {
    for (const [k, v] of Object.entries(r.settledOptions ?? {})) {
      if (!seen.has(k)) seen.set(k, new Set());
      seen.get(k)!.add(String(v));
      if (!first.has(k)) first.set(k, v);
    }
  }
  if (seen.size === 0) return protocol;
  const options = { ...protocol.options };
  for (const [k, values] of seen) options[k] = values.size === 1 ? first.get(k)! : [...values].sort().join(',');
  return { name: protocol.name, options };
}
