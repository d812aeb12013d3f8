/**
 * GT suspects (shared/specs/errors.md, report `diagnostics.suspects`) as a review queue: "Next
 * suspect" (key s) opens the next one in rank order, and two buttons file it under the existing
 * review states of model A's result — the case as "GT missing" / "GT wrong" with the suspect
 * instance marked too, or as "model error" when the GT is right. Suspects change no number.
 */
import { useEffect, useState } from 'react';
import type { StoreApi } from 'zustand';
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

export function SuspectQueue({ store }: { store: StoreApi<CasesSlice> }) {
  // Suspects come with the app's report; a standalone case list (the harness) has none.
  const inApp = store === (useBench as unknown);
  const report = useBench((s) => s.report !== null);
  const suspects = useBench((s) => s.report?.diagnostics?.suspects);
  const fingerprint = useBench((s) => s.dataset?.info.fingerprint);
  const modelA = useBench((s) => s.caseQuery.models.a);
  // Reviews of a model's predictions belong to its file's content (src/db/subjects.ts).
  const contentA = useBench((s) => (modelA ? s.modelContent[modelA] : undefined));
  const selectCase = useBench((s) => s.selectCase);
  const [at, setAt] = useState<{ list: Suspect[] | undefined; i: number | null }>({ list: undefined, i: null });
  const [saved, setSaved] = useState<string | null>(null);
  const i = at.list === suspects ? at.i : null;
  const list = suspects ?? [];
  const next = () => {
    const k = nextIndex(list.length, i);
    setAt({ list: suspects, i: k });
    setSaved(null);
    if (k !== null) selectCase(list[k].case_id);
  };
  // With no suspect the key still answers, saying so (issue #42: `s` did nothing visible).
  const [askedNone, setAskedNone] = useState(false);
  useEffect(() => {
    if (!inApp || !report) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== SUSPECT_KEY || e.ctrlKey || e.metaKey || e.altKey || isTypingTarget(e.target)) return;
      e.preventDefault();
      if (list.length === 0) setAskedNone(true);
      else next();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });
  if (!inApp) return null;
  if (list.length === 0)
    return askedNone ? (
      <section className="cb-facet" data-testid="suspect-queue" aria-label="GT suspects">
        <h3>GT suspects</h3>
        <p className="muted" role="status" data-testid="no-suspects">
          {suspects === undefined
            ? 'None: GT suspects are found for LTB, gansulishuzhi, TABench T2R and Chronicles-OCR spotting only.'
            : 'None in this report: no background false positive several models agree on, no GT every model misses with nothing near.'}
        </p>
      </section>
    ) : null;
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
