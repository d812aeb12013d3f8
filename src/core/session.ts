/**
 * A scoring session: one dataset, any number of models, one protocol at a time. The CLI, the
 * worker and the tests all drive scoring through this class, so the numbers cannot drift apart.
 */
import { ADAPTERS, adapterFor } from './benchmarks/registry';
import { buildReport, type Report } from './report';
import { caseLine, serializeCaseLine } from './caseExport';
import { computeSuspects } from './errors/suspects';
import type { FileSource } from './io/fileSource';
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

/** The sentence the page and the CLI show when no benchmark was recognised. */
export function detectionFailureMessage(src: FileSource): string {
  const what = ADAPTERS.map((a) => `${a.title}: ${a.expects}`).join('; ');
  return `no recognisable benchmark in "${src.label}" (${src.list().length} files). Looked for — ${what}`;
}

export class BenchSession {
  private readonly models = new Map<string, LoadedPredictions>();
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
    return new BenchSession(adapter, dataset, src);
  }

  get info(): DatasetInfo {
    return this.dataset.info;
  }

  get modelNames(): string[] {
    return [...this.models.keys()];
  }

  /** Prediction sets shipped in the dataset folder itself (infer_results/, runs/). */
  async addBundledPredictions(ctx?: RunContext): Promise<string[]> {
    const added: string[] = [];
    for (const input of this.adapter.bundledPredictions(this.source)) {
      added.push(...(await this.addPredictions(input, ctx)));
    }
    return added;
  }

  /** Loads a prediction file or folder; returns the model names it added (renamed when taken). */
  async addPredictions(input: PredictionInput, ctx?: RunContext): Promise<string[]> {
    let loaded: LoadedPredictions[];
    try {
      loaded = await this.adapter.loadPredictions(this.dataset, input, ctx);
    } catch (e) {
      if (e instanceof InputError || (e as Error).name === 'AbortError') throw e;
      // An unreadable prediction file is a user problem, not a crash: name the file and why.
      throw new InputError(`prediction ${input.name}: ${(e as Error).message}`);
    }
    const names: string[] = [];
    for (const p of loaded) {
      let name = p.model;
      for (let i = 2; this.models.has(name); i++) name = `${p.model}-${i}`;
      p.model = name;
      this.models.set(name, p);
      names.push(name);
    }
    return names;
  }

  removeModel(name: string): void {
    this.models.delete(name);
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
