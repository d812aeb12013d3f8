/**
 * The store's actions that talk to the scoring worker. They keep the order of events honest:
 * a result that arrives after a newer request was made is dropped, never shown.
 */
import type { BenchmarkId, OptionValue, Protocol, QaState } from '../../core';
import type { Listing } from '../../io/listing';
import { scoringClient, type AddOutcome, type OpenedDataset } from '../../worker/client';
import { defaultOptions, useBench } from './index';
import { parseViewHash, protocolFromLink } from '../viewUrl';
import { installCaseTable, refreshGtHealth, showGtCases } from './gtHealthActions';
import { computeIntervals, dropIntervals } from './uncertaintyActions';

let generation = 0;

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e)).split('\n')[0];
const isAbort = (e: unknown): boolean => (e as Error)?.name === 'AbortError' || /cancel|abort/i.test((e as Error)?.message ?? '');

export async function loadDemos(): Promise<void> {
  try {
    useBench.getState().setDemos(await scoringClient().availableDemos());
  } catch {
    useBench.getState().setDemos([]);
  }
}

export function openDemo(id: BenchmarkId): Promise<void> {
  return open({ demo: id }, 'demo');
}

/** The folder open now, so it can be opened again as another of the benchmarks it holds. */
let lastListing: Listing | null = null;

export function openListing(listing: Listing, benchmark?: BenchmarkId): Promise<void> {
  lastListing = listing;
  return open(listing, listing.label, benchmark);
}

/** Opens the current folder again as `benchmark` (one of the candidates it was detected as). */
export function openAs(benchmark: BenchmarkId): Promise<void> {
  return lastListing ? open(lastListing, lastListing.label, benchmark, true) : Promise.resolve();
}

async function open(input: Listing | { demo: BenchmarkId }, label: string, benchmark?: BenchmarkId, keepCandidates = false): Promise<void> {
  const gen = ++generation;
  const st = useBench.getState();
  // Filters read from the URL at start-up belong to the first dataset; only replacing an open
  // dataset clears them.
  const replacing = st.dataset !== null;
  st.setOpening();
  let opened: OpenedDataset;
  try {
    opened = await scoringClient().open(input, benchmark);
  } catch (e) {
    if (gen === generation) useBench.getState().setOpenError(message(e));
    return;
  }
  if (gen !== generation) return;
  // A link names its protocol and options: use them when this dataset offers that protocol. Read
  // before the store changes: the URL is rewritten from the store as soon as the dataset is set.
  const protocol = (!replacing ? protocolFromLink(parseViewHash(location.hash).protocol, opened.protocols) : null) ?? opened.protocol;
  useBench.setState({ report: null, extras: {}, modelError: null, refusals: [], scoreError: null, gtHealth: null, gtHealthError: null, gtFocus: null });
  dropIntervals();
  const s = useBench.getState();
  s.setCaseTable(null);
  if (replacing) s.clearCaseFilters();
  // Opened as a chosen benchmark, the worker detected nothing: keep the list the user chose from.
  const candidates = keepCandidates ? (st.dataset?.candidates ?? []) : opened.candidates;
  s.setProtocol(protocol);
  s.setOpened({ benchmark: opened.benchmark, title: opened.title, info: opened.info, protocols: opened.protocols, reportLayout: opened.reportLayout, demo: opened.demo, label, candidates });
  await showModels(opened.models);
  // The GT health check runs in the worker whether or not there are predictions (its panel
  // stands beside the report too); without predictions the GT itself is the case list.
  void refreshGtHealth();
  if (opened.models.length > 0) await rescore();
  else await showGtCases();
}

/**
 * Reads prediction files into the worker with a progress bar (MiB of a big JSONL) and Cancel, then
 * scores. A cancelled add leaves the models exactly as they were.
 */
export async function addPredictions(listing: Listing, { sameAction = false }: { sameAction?: boolean } = {}): Promise<void> {
  const s = useBench.getState();
  if (!s.dataset) return;
  const id = ++addId;
  // A new add replaces the last one's notice; the later adds of one drop (folders, then files)
  // add to it, so every dropped file's outcome stays listed.
  if (!sameAction) s.dismissModelNotice();
  s.startAdding();
  const client = scoringClient();
  let out: AddOutcome;
  try {
    out = await client.addPredictions(listing, (pr) => {
      if (id === addId) useBench.getState().setProgress(pr);
    });
    performance.mark('benchlens:predictions-added'); // names the bench's long tasks
  } catch (e) {
    cancelledAdds.delete(id);
    if (id !== addId) {
      if (!isAbort(e)) useBench.getState().setModelError(message(e));
    } else if (isAbort(e)) {
      useBench.getState().stopAdding(ADD_CANCELLED);
    } else {
      useBench.getState().stopAdding();
      useBench.getState().setModelError(message(e));
    }
    return;
  }
  const st = useBench.getState();
  if (cancelledAdds.delete(id)) {
    // Cancel was pressed just as the worker finished: the user asked for no new model.
    try {
      let models = out.models;
      for (const name of out.added) models = await client.removeModel(name);
      await showModels(models);
    } catch (e) {
      useBench.getState().setModelError(message(e));
    }
    if (id === addId) useBench.getState().stopAdding(ADD_CANCELLED);
    return;
  }
  if (id === addId) st.stopAdding();
  if (sameAction) st.setRefusals([...st.refusals, ...out.refused], [...st.lastAdded, ...out.added]);
  else st.setRefusals(out.refused, out.added);
  await showModels(out.models);
  if (out.duplicates.length > 0) st.noteDuplicates(out.duplicates);
  // Every file refused: the models and their numbers are as they were.
  if (out.added.length > 0) await rescore();
}

/**
 * Sets the model names together with their content fingerprints (the key of their reviews), so
 * no review panel ever sees a model whose content key is not known yet.
 */
async function showModels(models: string[]): Promise<void> {
  let content: Record<string, string> = {};
  try {
    content = await scoringClient().modelContents();
  } catch {
    // An old worker state without contents: reviews of predictions wait (the panel says so).
  }
  useBench.setState({ modelContent: content });
  useBench.getState().setModelNames(models);
}

const ADD_CANCELLED = 'adding predictions cancelled — no model was added';
/** The latest add (the one the status bar shows) and the adds Cancel was pressed for. */
let addId = 0;
const cancelledAdds = new Set<number>();

export async function removeModel(name: string): Promise<void> {
  try {
    await showModels(await scoringClient().removeModel(name));
    await refreshResults();
  } catch (e) {
    useBench.getState().setModelError(message(e));
  }
}

export async function renameModel(from: string, to: string): Promise<void> {
  try {
    await showModels(await scoringClient().renameModel(from, to));
    await refreshResults();
    // Keep the compared pair on the renamed model.
    const { a, b } = useBench.getState().caseQuery.models;
    const rn = (m: string | null) => (m === from ? to.trim() : m);
    if (a === from || b === from) useBench.getState().setModels(rn(a), rn(b));
  } catch (e) {
    useBench.getState().setModelError(message(e));
  }
}

/** Picks a protocol by name, starting from its default options. */
export function chooseProtocol(name: string): Promise<void> {
  const spec = useBench.getState().dataset?.protocols.find((p) => p.name === name);
  if (!spec) return Promise.resolve();
  return rescore({ name, options: defaultOptions(spec) });
}

export function setOption(key: string, value: OptionValue): Promise<void> {
  const p = useBench.getState().protocol;
  if (!p) return Promise.resolve();
  return rescore({ name: p.name, options: { ...p.options, [key]: value } });
}

/** Scores every model under `protocol` (default: the current one) and loads the case table. */
export async function rescore(protocol?: Protocol): Promise<void> {
  const s = useBench.getState();
  const p = protocol ?? s.protocol;
  if (!p || !s.dataset) return;
  s.setProtocol(p);
  if (s.models.length === 0) {
    useBench.setState({ report: null, extras: {} });
    dropIntervals();
    s.setCaseTable(null);
    await showGtCases();
    return;
  }
  const gen = ++generation;
  s.startScoring();
  try {
    const client = scoringClient();
    const out = await client.score(p.name, p.options, (pr) => {
      if (gen === generation) useBench.getState().setProgress(pr);
    });
    performance.mark('benchlens:score-received'); // lets the perf bench name its long tasks
    const table = await client.getCaseTable();
    // Receiving the table (structured-clone deserialisation of its strings, and the young-generation
    // collection that follows) is one task; the report renders in the next, the case list in the
    // one after, so none of them holds the main thread for long (issue 6) — least of all right
    // after a big score, when the worker's garbage collection competes for the same cores.
    // "Scoring" and its Cancel button last until the report is installed, as the cancel flow expects.
    await nextTask();
    if (gen !== generation) return;
    // Cancel was pressed after the worker had finished: the user asked not to see this run.
    if (useBench.getState().cancelling || !useBench.getState().scoring) return;
    performance.mark('benchlens:show-report');
    useBench.getState().setScored({ report: out.report, extras: out.extras, elapsedMs: out.elapsedMs });
    // The intervals follow the report (same task: the new numbers never show the old intervals);
    // the worker computes them while the page installs the case list.
    void computeIntervals();
    await nextTask();
    if (gen !== generation) return;
    performance.mark('benchlens:show-cases');
    installCaseTable(table);
  } catch (e) {
    if (gen !== generation) return;
    useBench.getState().stopScoring(isAbort(e) ? cancelledMessage() : message(e));
  }
}

/** Resolves in a later task, after the browser has had the chance to paint and handle input. */
export function nextTask(): Promise<void> {
  const sched = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof sched?.yield === 'function') return sched.yield();
  return new Promise((r) => setTimeout(r, 0));
}

const cancelledMessage = () =>
  useBench.getState().report ? 'scoring cancelled — the numbers shown are from the previous run' : 'scoring cancelled — nothing scored yet';

/** Cancels what the status bar shows: a score, or prediction files being read. */
export async function cancelScoring(): Promise<void> {
  const s = useBench.getState();
  if (!s.scoring && !s.adding) return;
  // Only the add on screen now is cancelled: one started while the worker restarts is not.
  const add = s.adding ? addId : null;
  if (add !== null) cancelledAdds.add(add);
  s.setCancelling(true);
  const gen = generation;
  await scoringClient().cancel();
  // If the worker had to be restarted the pending calls were rejected; make sure the UI stops.
  if (add !== null && add === addId && useBench.getState().adding) useBench.getState().stopAdding(ADD_CANCELLED);
  // A score started while the cancel was under way (another protocol picked at once) is not
  // the one cancelled: leave its state and its protocol alone.
  if (gen !== generation) return;
  if (useBench.getState().scoring) useBench.getState().stopScoring(cancelledMessage());
  // Put the protocol selector back on the protocol that produced the numbers on screen.
  const shown = useBench.getState().report?.protocol;
  if (shown) useBench.getState().setProtocol(shown);
}

/** After a rename or removal: the worker kept its results, so only re-read them. */
async function refreshResults(): Promise<void> {
  const client = scoringClient();
  const report = await client.getReport();
  if (!report) {
    useBench.setState({ report: null });
    dropIntervals();
    useBench.getState().setCaseTable(null);
    // The last model removed: back to the GT alone.
    if (useBench.getState().models.length === 0) await showGtCases();
    return;
  }
  const caseTable = await client.getCaseTable();
  const extras = useBench.getState().extras;
  useBench.getState().setScored({ report, extras, caseTable, elapsedMs: useBench.getState().elapsedMs ?? 0 });
  // The models' names changed: the block's (keyed by name) is recomputed with them.
  void computeIntervals();
}

export type ExportKind = 'report' | 'csv';

/** The text of report.json or report.csv. */
export async function exportText(kind: ExportKind): Promise<string> {
  const client = scoringClient();
  if (kind === 'report') return client.exportReport();
  return client.exportCsv();
}

/** case_analysis.jsonl as a Blob (it can be several GB), the given reviews merged in by the worker. */
export function exportCaseAnalysis(qaByKey?: ReadonlyMap<string, QaState>): Promise<Blob> {
  return scoringClient().exportCaseAnalysis(qaByKey);
}
