/**
 * The cases of a dataset opened without predictions: every case with its facets and its GT
 * instances, nothing scored. A GT-only workspace browses these, and the GT health findings
 * number instances as these do.
 *
 * Built by running the adapter's own scorer on an empty prediction set and then clearing what
 * depends on predictions. Why not a second, GT-only case builder per benchmark: the case ids,
 * facets, image paths and — above all — the GT instance numbering would then be a copy of the
 * scorer's, free to drift from what the viewer shows once predictions arrive (a finding on
 * "GT 4" must be GT 4 in both).
 *
 * Limit: what a benchmark keeps only in its prediction files stays absent — Chronicles'
 * Recognition target box is read from the results file (the GT names only the character), so a
 * GT-only Recognition case has its GT character without a box.
 */
import type { BenchmarkAdapter, CaseRecord, DatasetInfo, Instance, LoadedPredictions, ModelResult, Protocol, RunContext } from './model';

/** The name the GT-only result carries; never shown as a model (the page labels it "ground truth"). */
export const GT_ONLY_MODEL = '\u0000ground truth';

/** Each benchmark's prediction data with no record at all (the shapes its loader returns). */
function emptyPredictionData(adapter: BenchmarkAdapter, dataset: { info: DatasetInfo }): unknown {
  switch (adapter.id) {
    case 'ltb': {
      const n = (dataset as unknown as { images: unknown[] }).images.length;
      // emptyDocument: a well-formed file that detected nothing (scored, not refused).
      return { images: new Array<undefined>(n).fill(undefined), format: 'none', source: '(no predictions)', joined: 0, emptyDocument: true };
    }
    case 'chronicles': {
      // The scorer lists only rows a results file names: name every row, with no answer.
      const rows = (dataset as unknown as { rows: { image_path: string }[] }).rows;
      return { file: '(no predictions)', rows: new Map(rows.map((r) => [r.image_path, { line: 0, results: {} }])) };
    }
    case 'gansulishuzhi':
      return { file: '(no predictions)', byPage: new Map(), format: 'run-lines' };
    case 'tabench':
      return { file: '(no predictions)', space: 'abs', spaceFrom: 'default', lines: [], format: 'benchmark-lines' };
    case 'pulsebench-select':
      return { bySample: new Map(), malformedLines: 0, unknownSamples: 0 };
  }
}

/**
 * Facets a scorer derives from the predictions (LTB: the challenges of the missed words;
 * Chronicles: the judge's "ambiguous" flag): meaningless before any model, so left out.
 */
const PREDICTION_FACETS: Partial<Record<BenchmarkAdapter['id'], readonly string[]>> = { ltb: ['missed'], chronicles: ['flag'] };

/** One GT instance with what a prediction decided taken away: don't-care and context stay. */
function neutralGt(g: Instance): Instance {
  // GT-side states (don't care, unknown character, context) stay; matched / missed become 'info'.
  const keep = g.state === 'dontcare' || g.state === 'info' || g.state === 'unk' ? g.state : 'info';
  const out: Instance = { id: g.id, state: keep };
  if (g.shape) out.shape = g.shape;
  if (g.text !== undefined) out.text = g.text;
  if (g.tags) out.tags = g.tags;
  // `unscored` tells the viewer this GT was drawn before any model, so it says "unscored", not
  // "context" (the label of 'info' instances that are context under a model, e.g. a query box).
  if (keep === 'info' && g.state !== 'info') out.attrs = { ...g.attrs, unscored: true };
  else if (g.attrs) out.attrs = g.attrs;
  // A don't-care / unknown reason is about the GT; a miss reason is about a model.
  if (keep !== 'info' && g.reason) out.reason = g.reason;
  return out;
}

/** A case as it is before any model: its GT, facets and image, no score, no predictions. */
export function neutralCase(c: CaseRecord, dropFacets: readonly string[] = []): CaseRecord {
  const facets = dropFacets.length === 0 ? c.facets : Object.fromEntries(Object.entries(c.facets).filter(([k]) => !dropFacets.includes(k)));
  const out: CaseRecord = {
    case_id: c.case_id,
    image_path: c.image_path,
    facets,
    score: null,
    outcome: 'skipped',
    gt: c.gt.map(neutralGt),
    pred: [],
    matches: [],
    errors: [],
  };
  if (c.image_file !== undefined) out.image_file = c.image_file;
  if (c.task !== undefined) out.task = c.task;
  if (c.width !== undefined) out.width = c.width;
  if (c.height !== undefined) out.height = c.height;
  return out;
}

/**
 * Every case of `dataset` with its GT only, under `protocol` (the default one: a protocol may
 * decide which GT is care). The result's model is GT_ONLY_MODEL and it carries no metrics.
 */
export async function gtOnlyResult(adapter: BenchmarkAdapter, dataset: { info: DatasetInfo }, protocol: Protocol, ctx?: RunContext): Promise<ModelResult> {
  const preds: LoadedPredictions = { model: GT_ONLY_MODEL, data: emptyPredictionData(adapter, dataset), warnings: [], counts: {} };
  const scored = await adapter.score(dataset, preds, protocol, { ...ctx, diagnostics: false });
  return { model: GT_ONLY_MODEL, metrics: {}, counts: {}, warnings: [], cases: scored.cases.map((c) => neutralCase(c, PREDICTION_FACETS[adapter.id])) };
}
