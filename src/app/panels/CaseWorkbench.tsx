/**
 * The case area: the case list (panels/cases), the viewer (canvas) on the selected case, and the
 * review panel (qa). The shell only connects them: the selection and the compared pair live in
 * the store's cases slice; the records and the image come from the worker, one case at a time.
 */
import { useCallback, useEffect, useState } from 'react';
import type { CaseRecord } from '../../core';
import { scoringClient } from '../../worker/client';
import { CaseViewer, type CompareMode, type GtEditorFrame, type ImageStatus } from '../canvas/CaseViewer';
import { decodeImage } from '../canvas/decode';
import { useOverlayImage } from '../canvas/useOverlayImage';
import { CaseGtEditor } from '../qa/CaseGtEditor';
import { ReviewPanel } from '../qa/ReviewPanel';
import { nextUnreviewed } from '../qa/reviewFilters';
import { useReviews } from '../qa/useReviews';
import { useBench } from '../store';
import { CaseBrowser } from './cases/CaseBrowser';

interface Loaded {
  caseId: string;
  version: number;
  views: { model: string; record: CaseRecord }[];
}

export function CaseWorkbench() {
  const benchmark = useBench((s) => s.dataset?.benchmark);
  const fingerprint = useBench((s) => s.dataset?.info.fingerprint);
  const caseId = useBench((s) => s.selectedCaseId);
  const modelA = useBench((s) => s.caseQuery.models.a);
  const modelB = useBench((s) => s.caseQuery.models.b);
  const version = useBench((s) => s.resultVersion);
  const nextCase = useBench((s) => s.nextCase);
  const previousCase = useBench((s) => s.previousCase);
  const selectCase = useBench((s) => s.selectCase);
  const { reviews } = useReviews(fingerprint);
  const [compare, setCompare] = useState<CompareMode>('single');
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [image, setImage] = useState<{ key: string; bitmap: ImageBitmap | null; status: ImageStatus } | null>(null);
  const [selected, setSelected] = useState<{ model: string; side: 'gt' | 'pred'; id: number } | null>(null);

  // The records of the selected case under every model (the viewer shows A, or A and B).
  useEffect(() => {
    if (!caseId) return;
    let live = true;
    scoringClient()
      .getCases(caseId)
      .then((byModel) => {
        if (!live) return;
        setLoaded({ caseId, version, views: Object.entries(byModel).map(([model, record]) => ({ model, record })) });
      })
      .catch(() => live && setLoaded({ caseId, version, views: [] }));
    return () => {
      live = false;
    };
  }, [caseId, version]);

  const current = loaded && loaded.caseId === caseId ? loaded : null;
  const first = current?.views[0]?.record;
  const imageFile = first ? (first.image_file === undefined ? first.image_path : first.image_file) : null;
  const imageKey = `${caseId}|${imageFile}|${version}`;

  useEffect(() => {
    if (!first) return;
    let live = true;
    if (!imageFile) {
      setImage({ key: imageKey, bitmap: null, status: 'missing' });
      return;
    }
    scoringClient()
      .getImageBytes(imageFile)
      .then((bytes) => decodeImage(new Blob([bytes as Uint8Array<ArrayBuffer>])))
      .then(
        (bitmap) => live && setImage({ key: imageKey, bitmap, status: 'ok' }),
        () => live && setImage({ key: imageKey, bitmap: null, status: 'error' }),
      );
    return () => {
      live = false;
    };
  }, [first, imageFile, imageKey]);

  const overlayImage = useOverlayImage(first, readImageBytes);

  const onInstanceSelect = useCallback((model: string, side: 'gt' | 'pred', id: number) => setSelected({ model, side, id }), []);

  const views = current
    ? orderViews(current.views, modelA, compare === 'single' ? null : modelB, compare === 'overlay' || compare === 'side-by-side')
    : [];
  const shownModel = views[0]?.model ?? modelA ?? null;
  const img = image && image.key === imageKey ? image : null;

  // Corrections are per case and dataset; the GT is the same under every model, so the first
  // view's record provides it.
  const gtCaseId = first?.case_id;
  const gtList = first?.gt;
  const gtEditor = useCallback(
    (frame: GtEditorFrame) => (fingerprint && gtCaseId && gtList ? <CaseGtEditor key={gtCaseId} fingerprint={fingerprint} caseId={gtCaseId} gt={gtList} frame={frame} /> : null),
    [fingerprint, gtCaseId, gtList],
  );

  // "Next unreviewed" walks the case list in its current (filtered, sorted) order.
  const onNextUnreviewed = () => {
    const { caseTable, caseResult } = useBench.getState();
    if (!caseTable || !caseResult || !shownModel) return;
    const order = Array.from(caseResult.rows, (r) => caseTable.caseIds[r]);
    const next = nextUnreviewed(order, caseId, shownModel, reviews);
    if (next) selectCase(next);
  };

  return (
    <div className="case-area">
      <div className="case-list">
        <CaseBrowser />
      </div>
      <div className="case-viewer">
        {!caseId || !benchmark ? (
          <div className="placeholder">Select a case in the list to see it on the image.</div>
        ) : !current ? (
          <div className="placeholder">Loading the case…</div>
        ) : views.length === 0 ? (
          <div className="placeholder">No model has a result for this case.</div>
        ) : (
          <div className="viewer-wrap">
            <div className="viewer-tools" role="group" aria-label="Compare models">
              {(['single', 'side-by-side', 'overlay'] as const).map((m) => (
                <label key={m}>
                  <input type="radio" name="compare" checked={compare === m} onChange={() => setCompare(m)} disabled={m !== 'single' && current.views.length < 2} /> {m}
                </label>
              ))}
            </div>
            <CaseViewer
              benchmark={benchmark}
              views={views}
              image={img?.bitmap ?? null}
              imageStatus={img?.status ?? 'loading'}
              imagePath={first?.image_path ?? undefined}
              overlayImage={overlayImage}
              compare={compare}
              onPrevCase={previousCase}
              onNextCase={nextCase}
              onInstanceSelect={onInstanceSelect}
              gtEditor={fingerprint ? gtEditor : undefined}
            />
          </div>
        )}
      </div>
      <div className="case-review">
        {caseId && fingerprint && shownModel ? (
          <ReviewPanel
            fingerprint={fingerprint}
            model={shownModel}
            caseId={caseId}
            selectedInstance={selected && selected.model === shownModel ? { side: selected.side, id: selected.id } : null}
            onNextUnreviewed={onNextUnreviewed}
          />
        ) : (
          <div className="placeholder">Reviews of the selected case appear here.</div>
        )}
      </div>
    </div>
  );
}

const readImageBytes = (path: string) => scoringClient().getImageBytes(path);

/** Model A first; with a comparison, B next (or every other model when no B is chosen). */
function orderViews<T extends { model: string }>(views: T[], a: string | null, b: string | null, many: boolean): T[] {
  const first = views.find((v) => v.model === a) ?? views[0];
  if (!first) return [];
  if (!many) return [first];
  const second = b ? views.filter((v) => v.model === b && v !== first) : views.filter((v) => v !== first);
  return [first, ...second];
}
