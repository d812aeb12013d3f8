/**
 * GT suspects (shared/specs/errors.md, report `diagnostics.suspects`) as a review queue: "Next
 * suspect" (key s) opens the next one in rank order, and two buttons file it under the existing
 * review states of model A's result — the case as "GT missing" / "GT wrong" with the suspect
 * instance marked too, or as "model error" when the GT is right. Suspects change no number.
 */
import { useEffect, useState } from 'react';
import { create, type StoreApi } from 'zustand';
import type { Suspect } from '../../../core';
import { putInstanceReview, setCaseStatus } from '../../../db/reviewsRepo';
import { predSubject } from '../../../db/subjects';
import { isTypingTarget } from '../../qa/reviewKeys';
import { useBench } from '../../store';
import { SUSPECT_KEY } from '../../keyHelp';
import type { CasesSlice } from '../../store/casesSlice';

/** What a suspect points at, in words: "pred 3 of m1, pred 7 of m2 (score 0.91)". */
export function describeSuspect(s: Suspect): string {
  if (s.kind === 'wrong_gt') return `possible wrong GT: gt ${s.gt ?? '?'} is missed by every model (nothing within IoU 0.1)`;
  const preds = Object.entries(s.pred ?? {})
    .map(([m, i]) => `pred ${i} of ${m}`)
    .join(', ');
  return `possible missing GT: background ${preds}${s.score !== undefined ? ` (score ${s.score.toFixed(2)})` : ''}`;
}

/** The position after `current` in a list of `n` (wrapping), the first one when nothing is open. */
export function nextIndex(n: number, current: number | null): number | null {
  if (n === 0) return null;
  return current === null ? 0 : (current + 1) % n;
}

/**
 * Where the walk through the suspects is: shared by the key (useSuspectKey, mounted with the case
 * list whether or not its filters are open — at 1366 px they are folded, and the key used to live
 * only in this panel, so it did nothing) and by the queue here. `none`: the key was pressed with
 * no suspect in the report (said under the toolbar: SuspectLine).
 */
export const useSuspectCursor = create<{ list: Suspect[] | undefined; i: number | null; none: boolean }>(() => ({ list: undefined, i: null, none: false }));

/** Opens the next suspect of the report (rank order, wrapping), or says there is none. */
export function stepSuspect(): void {
  const suspects = useBench.getState().report?.diagnostics?.suspects;
  const cur = useSuspectCursor.getState();
  const list = suspects ?? [];
  if (list.length === 0) {
    useSuspectCursor.setState({ list: suspects, i: null, none: true });
    return;
  }
  const k = nextIndex(list.length, cur.list === suspects ? cur.i : null);
  useSuspectCursor.setState({ list: suspects, i: k, none: false });
  if (k !== null) useBench.getState().selectCase(list[k].case_id);
}

/** The key `s` walks the suspects while a report is open (not while typing, not with modifiers). */
export function useSuspectKey(enabled: boolean): void {
  const report = useBench((s) => s.report !== null);
  useEffect(() => {
    if (!enabled || !report) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== SUSPECT_KEY || e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented || isTypingTarget(e.target)) return;
      e.preventDefault();
      stepSuspect();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [enabled, report]);
}

/** Why there is no suspect, in words. */
function noneText(suspects: Suspect[] | undefined): string {
  return suspects === undefined
    ? 'No GT suspects: they are found for LTB, gansulishuzhi, TABench T2R and Chronicles-OCR spotting.'
    : 'No GT suspects in this report: no background false positive several models agree on, no GT every model misses with nothing near.';
}

/**
 * One line under the case list's toolbar after the key: the suspect now open (filed from the
 * queue under Filters), or that there is none. Visible whether or not the filters are open.
 */
export function SuspectLine() {
  const suspects = useBench((s) => s.report?.diagnostics?.suspects);
  const { list, i, none } = useSuspectCursor();
  // A suspect of another report (the protocol changed, another dataset) is not shown; "none"
  // only while the report on screen still has none.
  const current = list === suspects && i !== null ? suspects?.[i] : undefined;
  if (!current && !(none && (suspects?.length ?? 0) === 0)) return null;
  return (
    <div className="cb-suspect-line" role="status" data-testid="suspect-line">
      <span>
        {current ? (
          <>
            GT suspect {i! + 1} / {suspects!.length}: <bdi>{current.case_id}</bdi> — {describeSuspect(current)} (s: next; file it under GT suspects in the filters)
          </>
        ) : (
          noneText(suspects)
        )}
      </span>
      <button type="button" className="cb-link" aria-label="Close" onClick={() => useSuspectCursor.setState({ i: null, none: false })}>
        ×
      </button>
    </div>
  );
}

export function SuspectQueue({ store }: { store: StoreApi<CasesSlice> }) {
  // Suspects come with the app's report; a standalone case list (the harness) has none.
  const inApp = store === (useBench as unknown);
  const suspects = useBench((s) => s.report?.diagnostics?.suspects);
  const fingerprint = useBench((s) => s.dataset?.info.fingerprint);
  const modelA = useBench((s) => s.caseQuery.models.a);
  // Reviews of a model's predictions belong to its file's content (src/db/subjects.ts).
  const contentA = useBench((s) => (modelA ? s.modelContent[modelA] : undefined));
  const at = useSuspectCursor();
  const [saved, setSaved] = useState<string | null>(null);
  const i = at.list === suspects ? at.i : null;
  const list = suspects ?? [];
  const next = () => {
    setSaved(null);
    stepSuspect();
  };
  if (!inApp) return null;
  // None: the key's line under the toolbar says so (SuspectLine).
  if (list.length === 0) return null;
  const current = i === null ? null : list[i];
  const file = async (gtProblem: boolean) => {
    if (!current || !fingerprint || !modelA) return;
    if (!contentA) {
      setSaved(`not filed: the content key of ${modelA} is not known yet (its reviews wait for it)`);
      return;
    }
    const status = !gtProblem ? 'model_error' : current.kind === 'missing_gt' ? 'gt_missing' : 'gt_wrong';
    // A GT status is stored on the dataset's GT review, a model error on model A's prediction set.
    const pred = predSubject(contentA);
    await setCaseStatus(fingerprint, pred, current.case_id, status, undefined, { model: modelA });
    const inst = current.kind === 'wrong_gt' ? (current.gt !== undefined ? { side: 'gt' as const, id: current.gt } : null) : current.pred?.[modelA] !== undefined ? { side: 'pred' as const, id: current.pred[modelA] } : null;
    if (inst) await putInstanceReview(fingerprint, pred, current.case_id, { ...inst, status }, undefined, { model: modelA });
    setSaved(`${current.case_id}: ${status.replace('_', ' ')} (review of ${modelA})`);
  };
  return (
    <section className="cb-facet" data-testid="suspect-queue" aria-label="GT suspects">
      <h3>
        GT suspects <span className="cb-count">{list.length}</span>
      </h3>
      <button type="button" className="cb-link" onClick={next} title="key: s" data-testid="next-suspect">
        {i === null ? 'First suspect' : 'Next suspect'} (s)
      </button>
      {current && (
        <div className="cb-suspect" data-testid="current-suspect" data-case-id={current.case_id} data-kind={current.kind}>
          <p>
            {i! + 1} / {list.length}: <strong>{current.case_id}</strong> — {describeSuspect(current)}
          </p>
          {modelA && fingerprint ? (
            <div className="cb-chips">
              <button type="button" className="cb-chip" onClick={() => void file(true).catch((e: Error) => setSaved(e.message))}>
                {current.kind === 'missing_gt' ? 'GT missing' : 'GT wrong'}
              </button>
              <button type="button" className="cb-chip" onClick={() => void file(false).catch((e: Error) => setSaved(e.message))}>
                GT right: model error
              </button>
            </div>
          ) : null}
          {saved && <p className="muted">{saved}</p>}
        </div>
      )}
    </section>
  );
}
