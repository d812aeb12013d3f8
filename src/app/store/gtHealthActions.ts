/**
 * The GT health actions: the GT-only case list of a dataset opened without predictions, the
 * findings re-checked after every GT edit, and the `gt_health` facet that lets the case list
 * filter on them (the GT health panel's rows set that facet).
 */
import type { CaseTable } from '../../core';
import { onChange } from '../../db/changes';
import { scoringClient } from '../../worker/client';
import { nextTask } from './actions';
import { correctionsForScoring } from '../qa/corrections';
import { withHealthFacet } from './healthFacet';
import { useBench } from './index';

export { GT_HEALTH_FACET, withHealthFacet } from './healthFacet';

/** Installs a case table with the current findings' facet. */
export function installCaseTable(table: CaseTable | null): void {
  const s = useBench.getState();
  const next = table ? withHealthFacet(table, s.gtHealth) : null;
  if (next !== null && next === s.caseTable) return; // nothing changed for the list
  s.setCaseTable(next);
}

/**
 * A dataset with no model: its GT as the case list (every case, drawable, filterable), so it can
 * be browsed, reviewed and corrected before any prediction exists.
 */
export async function showGtCases(): Promise<void> {
  const ds = useBench.getState().dataset;
  try {
    const table = await scoringClient().getGtCaseTable();
    performance.mark('benchlens:gt-cases-received');
    // Receiving the columns is one task, listing them the next (as rescore does, issue 6).
    await nextTask();
    const s = useBench.getState();
    if (s.dataset !== ds || s.models.length > 0) return; // another dataset, or predictions arrived meanwhile
    performance.mark('benchlens:gt-cases-show');
    installCaseTable(table);
  } catch (e) {
    if (useBench.getState().dataset === ds) useBench.getState().setGtHealth(useBench.getState().gtHealth, `could not list the GT cases: ${(e as Error).message}`);
  }
}

let generation = 0;

/** Checks the GT (with the stored corrections applied) again; only the latest answer is shown. */
export async function refreshGtHealth(retried = false): Promise<void> {
  const ds = useBench.getState().dataset;
  if (!ds) return;
  const gen = ++generation;
  const s = useBench.getState();
  s.setGtHealthRunning(true);
  try {
    const corrections = await correctionsForScoring(ds.info.fingerprint);
    const health = await scoringClient().gtHealth(corrections, (p) => {
      if (gen === generation) useBench.getState().setGtHealthProgress(p);
    });
    performance.mark('benchlens:gt-health-received');
    await nextTask();
    if (gen !== generation || useBench.getState().dataset !== ds) return;
    useBench.getState().setGtHealth(health);
    // The panel renders in this task, the case list's new facet in the next.
    await nextTask();
    if (gen !== generation || useBench.getState().dataset !== ds) return;
    performance.mark('benchlens:gt-health-facet');
    const table = useBench.getState().caseTable;
    if (table) installCaseTable(table);
  } catch (e) {
    if (gen !== generation || useBench.getState().dataset !== ds) return;
    const msg = (e as Error)?.message ?? String(e);
    if ((e as Error)?.name === 'AbortError' || /cancel/i.test(msg)) {
      // Superseded by a newer edit, the newer check reports (and this generation is stale). Still
      // the latest, it was stopped with a score's Cancel (the worker may have been replaced):
      // check again, once, so the panel does not stay "checking".
      if (retried) useBench.getState().setGtHealthRunning(false);
      else void refreshGtHealth(true);
      return;
    }
    useBench.getState().setGtHealth(null, msg.split('\n')[0]);
  }
}

/**
 * Re-checks the GT health whenever a GT correction of the open dataset is stored (here or in
 * another tab), after a short pause so a dragged vertex does not start a check per step.
 */
export function watchGtCorrections(fingerprint: string): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const off = onChange((n) => {
    if (n.table !== 'corrections' || n.fingerprint !== fingerprint) return;
    clearTimeout(timer);
    timer = setTimeout(() => void refreshGtHealth(), 150);
  });
  return () => {
    clearTimeout(timer);
    off();
  };
}
