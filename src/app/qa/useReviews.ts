/**
 * Live reviews of one dataset for the case list (filters, counts) and the panels. A case shows,
 * for each loaded model, its GT review (the dataset's, the same for every model) together with
 * that model's prediction review (keyed by the content of its prediction file, so a renamed or
 * re-added file finds its reviews). The map follows every confirmed edit in this tab and in
 * other tabs (src/db/changes.ts) and this tab's unsaved edits (src/db/pendingReviews.ts).
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import { onChange } from '../../db/changes';
import { isUnsaved, onUnsavedChange } from '../../db/pendingReviews';
import { combineReview, type CaseReview } from '../../db/reviewShape';
import { claimLegacyReviews, getLiveReview, listLive } from '../../db/reviewsRepo';
import { getDb, type ReviewRow } from '../../db/schema';
import { GT_SUBJECT, predSubject } from '../../db/subjects';
import { useBench } from '../store';
import { reviewKey, type ReviewMap } from './reviewFilters';

export interface ReviewsView {
  /** (model name, case) → what the case shows for that model; use reviewFilters.ts to filter and count. */
  reviews: ReviewMap;
  /** True until the first read has finished. */
  loading: boolean;
}

const EMPTY: ReviewMap = new Map();

/** Model name → content fingerprint: the app store's, or the caller's (the harness). */
function useContents(given?: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
  const fromStore = useBench((s) => s.modelContent);
  return given ?? fromStore;
}

/** Builds the (model, case) map from a dataset's rows and the loaded models. */
export function buildReviewMap(rows: readonly ReviewRow[], contents: Readonly<Record<string, string>>): Map<string, CaseReview> {
  const gt = new Map<string, ReviewRow>();
  const pred = new Map<string, ReviewRow>();
  for (const r of rows) {
    if (r.subject === GT_SUBJECT) gt.set(r.case_id, r);
    else pred.set(`${r.subject}\u0000${r.case_id}`, r);
  }
  const out = new Map<string, CaseReview>();
  for (const [model, content] of Object.entries(contents)) {
    if (!content) continue;
    const subject = predSubject(content);
    const cases = new Set(gt.keys());
    for (const key of pred.keys()) if (key.startsWith(`${subject}\u0000`)) cases.add(key.slice(subject.length + 1));
    for (const c of cases) {
      const v = combineReview(model, c, gt.get(c), pred.get(`${subject}\u0000${c}`));
      if (v) out.set(reviewKey(model, c), v);
    }
  }
  return out;
}

export function useReviews(fingerprint: string | null | undefined, modelContents?: Readonly<Record<string, string>>): ReviewsView {
  const contents = useContents(modelContents);
  const [state, setState] = useState<{ fp: string | null; rows: ReviewRow[] } | null>(null);

  // Version-1 reviews made under a model's name move to the content of the file loaded under it.
  const contentKey = JSON.stringify(contents);
  useEffect(() => {
    if (!fingerprint) return;
    for (const [model, content] of Object.entries(JSON.parse(contentKey) as Record<string, string>)) {
      if (content) void claimLegacyReviews(fingerprint, model, predSubject(content)).catch(() => undefined);
    }
  }, [fingerprint, contentKey]);

  useEffect(() => {
    if (!fingerprint) return;
    let alive = true;
    const reload = async () => {
      const rows = await listLive(fingerprint);
      if (alive) setState({ fp: fingerprint, rows });
    };
    // Reads run one after another, in notice order, so a late answer never overwrites a newer one.
    let chain: Promise<void> = reload();
    const again = () => {
      chain = chain.then(reload).catch(() => reload());
    };
    const off = onChange((n) => {
      if (n.fingerprint === fingerprint && n.table === 'reviews') again();
    });
    const offUnsaved = onUnsavedChange(again);
    return () => {
      alive = false;
      off();
      offUnsaved();
    };
  }, [fingerprint]);

  return useMemo(() => {
    if (!fingerprint || state?.fp !== fingerprint) return { reviews: EMPTY, loading: !!fingerprint };
    return { reviews: buildReviewMap(state.rows, contents), loading: false };
  }, [state, fingerprint, contents]);
}

export interface LiveReview {
  /** What the case shows for this model (GT + prediction review), undefined when nothing is said. */
  review: CaseReview | undefined;
  gt: ReviewRow | undefined;
  pred: ReviewRow | undefined;
  /** Some of it is only in memory (storage full): shown, exported, being retried. */
  unsaved: boolean;
  loading: boolean;
  /** Re-read now (after this tab's own write; other changes arrive by notice). */
  refresh: () => void;
}

/**
 * One (model, case) review, live: the GT review of the case and the review of the model's
 * prediction set (`predSubjectKey`, null while its content key is not known).
 */
export function useReview(fingerprint: string, model: string, predSubjectKey: string | null, caseId: string): LiveReview {
  const key = `${fingerprint}\u0000${predSubjectKey}\u0000${caseId}`;
  const [state, setState] = useState<{ key: string; gt?: ReviewRow; pred?: ReviewRow; unsaved: boolean } | null>(null);
  const [tick, setTick] = useState(0);
  const refresh = useCallback(() => setTick((t) => t + 1), []);
  useEffect(() => {
    let alive = true;
    let seq = 0;
    const read = () => {
      const mine = ++seq;
      void Promise.all([getLiveReview(fingerprint, GT_SUBJECT, caseId), predSubjectKey ? getLiveReview(fingerprint, predSubjectKey, caseId) : undefined]).then(([gt, pred]) => {
        const db = getDb();
        const unsaved = isUnsaved(db, fingerprint, GT_SUBJECT, caseId) || (!!predSubjectKey && isUnsaved(db, fingerprint, predSubjectKey, caseId));
        if (alive && mine === seq) setState({ key, gt, pred, unsaved });
      });
    };
    read();
    const off = onChange((n) => {
      if (n.fingerprint !== fingerprint || n.table !== 'reviews') return;
      if (!n.keys || n.keys.some((k) => k.case_id === caseId && (k.subject === GT_SUBJECT || k.subject === predSubjectKey))) read();
    });
    const offUnsaved = onUnsavedChange(read);
    return () => {
      alive = false;
      off();
      offUnsaved();
    };
  }, [fingerprint, predSubjectKey, caseId, key, tick]);
  if (state?.key !== key) return { review: undefined, gt: undefined, pred: undefined, unsaved: false, loading: true, refresh };
  return { review: combineReview(model, caseId, state.gt, state.pred), gt: state.gt, pred: state.pred, unsaved: state.unsaved, loading: false, refresh };
}
