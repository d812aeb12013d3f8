/**
 * Live reviews of one dataset for the case list (filters, counts) and the panels. The map
 * follows every confirmed edit in this tab and in other tabs (src/db/changes.ts), re-reading only
 * the rows a change notice names.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import { onChange } from '../../db/changes';
import { getReview, listByDataset } from '../../db/reviewsRepo';
import type { ReviewRow } from '../../db/schema';
import { reviewKey, type ReviewMap } from './reviewFilters';

export interface ReviewsView {
  /** (model, case) → stored review; use reviewFilters.ts to filter and count. */
  reviews: ReviewMap;
  /** True until the first read has finished. */
  loading: boolean;
}

const EMPTY: ReviewMap = new Map();

export function useReviews(fingerprint: string | null | undefined): ReviewsView {
  const [state, setState] = useState<{ fp: string | null; map: ReviewMap }>({ fp: null, map: EMPTY });

  useEffect(() => {
    if (!fingerprint) return;
    let alive = true;
    const reloadAll = async () => {
      const rows = await listByDataset(fingerprint);
      if (alive) setState({ fp: fingerprint, map: new Map(rows.map((r) => [reviewKey(r.model, r.case_id), r])) });
    };
    const reloadSome = async (keys: { model?: string; case_id: string }[]) => {
      const rows = await Promise.all(keys.map(async (k) => [k, k.model === undefined ? undefined : await getReview(fingerprint, k.model, k.case_id)] as const));
      if (!alive) return;
      setState((s) => {
        const map = new Map(s.fp === fingerprint ? s.map : EMPTY);
        for (const [k, r] of rows) {
          if (k.model === undefined) continue;
          if (r) map.set(reviewKey(k.model, k.case_id), r);
          else map.delete(reviewKey(k.model, k.case_id));
        }
        return { fp: fingerprint, map };
      });
    };
    // Reads run one after another, in notice order, so a late answer never overwrites a newer one.
    let chain: Promise<void> = reloadAll();
    const off = onChange((n) => {
      if (n.fingerprint !== fingerprint || n.table !== 'reviews') return;
      chain = chain.then(() => (n.keys ? reloadSome(n.keys) : reloadAll())).catch(() => reloadAll());
    });
    return () => {
      alive = false;
      off();
    };
  }, [fingerprint]);

  return useMemo(
    () => ({ reviews: state.fp === fingerprint ? state.map : EMPTY, loading: !!fingerprint && state.fp !== fingerprint }),
    [state, fingerprint],
  );
}

/**
 * One (model, case) review, live. `accept(row)` shows a row the caller has just stored (the value
 * a put returned) at once, without waiting for the change notice's re-read.
 */
export function useReview(
  fingerprint: string,
  model: string,
  caseId: string,
): { review: ReviewRow | undefined; loading: boolean; accept: (row: ReviewRow | undefined) => void } {
  const [state, setState] = useState<{ key: string; review: ReviewRow | undefined } | null>(null);
  const key = `${fingerprint}\u0000${reviewKey(model, caseId)}`;
  useEffect(() => {
    let alive = true;
    let seq = 0;
    const read = () => {
      const mine = ++seq;
      void getReview(fingerprint, model, caseId).then((review) => {
        if (alive && mine === seq) setState({ key, review });
      });
    };
    read();
    const off = onChange((n) => {
      if (n.fingerprint !== fingerprint || n.table !== 'reviews') return;
      if (!n.keys || n.keys.some((k) => k.model === model && k.case_id === caseId)) read();
    });
    return () => {
      alive = false;
      off();
    };
  }, [fingerprint, model, caseId, key]);
  // A late save of the case the user has just left (a note saved on unmount) must not replace
  // the case now shown: only accept rows for the key that is current.
  const accept = useCallback((row: ReviewRow | undefined) => setState((s) => (s && s.key !== key ? s : { key, review: row })), [key]);
  return state?.key === key ? { review: state.review, loading: false, accept } : { review: undefined, loading: true, accept };
}
