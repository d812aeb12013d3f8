/**
 * The case area: the case list (panels/cases), the viewer (canvas) on the selected case, and the
 * details panel with the review (qa) at its foot — side by side, filling the window, with a
 * splitter between each (drag, or focus and ← / →). The shell only connects them: the selection,
 * the compared pair, the shown models and the compare mode live in the store's cases slice; the
 * records and the image come from the worker, one case at a time.
 *
 * With no model loaded (a dataset opened on its GT alone) the list is the GT's cases and the
 * viewer draws the GT ("ground truth" view): reviewable as GT, correctable with the GT editor,
 * and the GT health finding opened from its panel is selected on the canvas and told in the details.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { CaseRecord } from '../../core';
import { scoringClient } from '../../worker/client';
import { CaseViewer, type GtEditorFrame, type ImageStatus } from '../canvas/CaseViewer';
import { APP_KEY_HELP } from '../keyHelp';
import { modelColor } from '../canvas/style';
import { LIMITS, usePaneSizes } from '../layout/paneSizes';
import { Splitter } from '../layout/Splitter';
import { shownModelsOf } from '../store/casesSlice';
import { decodeImage } from '../canvas/decode';
import { useOverlayImage } from '../canvas/useOverlayImage';
import { CaseGtEditor } from '../qa/CaseGtEditor';
import { ReviewPanel } from '../qa/ReviewPanel';
import { nextUnreviewed } from '../qa/reviewFilters';
import { useReviews } from '../qa/useReviews';
import { useBench } from '../store';
import { GT_ONLY_VIEW } from '../viewer/rows';
import { CaseBrowser } from './cases/CaseBrowser';
import { CaseFindings, GtHealthPanel, useFindingFocus } from './GtHealthPanel';
import { orderViews } from './viewOrder';

/** The view name of a case's GT when no model is loaded. */
const GT_VIEW = GT_ONLY_VIEW;

interface Loaded {
  caseId: string;
  version: number;
  gtOnly: boolean;
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
  const compare = useBench((s) => s.compareMode);
  const allModels = useBench(useShallow((s) => s.caseTable?.models ?? []));
  const shownSetting = useBench((s) => s.shownModels);
  const shown = useMemo(() => shownModelsOf({ models: allModels }, shownSetting), [allModels, shownSetting]);
  const [sizes, setSize] = usePaneSizes();
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [image, setImage] = useState<{ key: string; bitmap: ImageBitmap | null; status: ImageStatus } | null>(null);
  const [selected, setSelected] = useState<{ model: string; side: 'gt' | 'pred'; id: number } | null>(null);
  const gtOnly = useBench((s) => s.caseTable !== null && s.caseTable.models.length === 0);

  // The records of the selected case under every model (the viewer shows A, or A and B); with no
  // model, the case's GT alone.
  useEffect(() => {
    if (!caseId) return;
    let live = true;
    const client = scoringClient();
    const read = gtOnly
      ? client.getGtCase(caseId).then((record) => (record ? [{ model: GT_VIEW, record }] : []))
      : client.getCases(caseId).then((byModel) => Object.entries(byModel).map(([model, record]) => ({ model, record })));
    read
      .then((views) => live && setLoaded({ caseId, version, gtOnly, views }))
      .catch(() => live && setLoaded({ caseId, version, gtOnly, views: [] }));
    return () => {
      live = false;
    };
  }, [caseId, version, gtOnly]);

  const current = loaded && loaded.caseId === caseId && loaded.gtOnly === gtOnly ? loaded : null;
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

  const views = useMemo(
    () => (!current ? [] : current.gtOnly ? current.views : orderViews(current.views, shown, modelA, modelB, compare !== 'single')),
    [current, shown, modelA, modelB, compare],
  );
  const focus = useFindingFocus(caseId, first);
  // Each model keeps the colour of its place among all loaded models, whatever is shown.
  const colors = useMemo(() => views.map((v) => modelColor(Math.max(0, allModels.indexOf(v.model)))), [views, allModels]);
  const missingModels = current ? shown.filter((m) => !current.views.some((v) => v.model === m)) : [];
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

  const review =
    caseId && fingerprint && gtOnly ? (
      <ReviewPanel
        fingerprint={fingerprint}
        model={GT_VIEW}
        caseId={caseId}
        gtOnly
        selectedInstance={selected && selected.side === 'gt' ? { side: 'gt', id: selected.id } : null}
      />
    ) : caseId && fingerprint && shownModel ? (
      <ReviewPanel
        fingerprint={fingerprint}
        model={shownModel}
        caseId={caseId}
        selectedInstance={selected && selected.model === shownModel ? { side: selected.side, id: selected.id } : null}
        onNextUnreviewed={onNextUnreviewed}
      />
    ) : null;

  return (
    <div className="case-area" style={{ gridTemplateColumns: `${sizes.list}px 6px minmax(0, 1fr)` }} data-testid="case-area">
      <div className={gtOnly ? 'case-list with-health' : 'case-list'}>
        {gtOnly && <GtHealthPanel where="workspace" />}
        <CaseBrowser />
      </div>
      <Splitter value={sizes.list} min={LIMITS.list.min} max={LIMITS.list.max} direction={1} onChange={(px) => setSize('list', px)} label="Resize the case list" testId="splitter-list" />
      <div className="case-viewer">
        {!caseId || !benchmark ? (
          <div className="placeholder">Select a case in the list to see it on the image.</div>
        ) : !current ? (
          <div className="placeholder">Loading the case…</div>
        ) : views.length === 0 ? (
          <div className="placeholder" role="alert" data-testid="no-prediction">
            {shown.length === 1 ? `${shown[0]} has` : 'None of the shown models has'} no prediction for this case (counted in the warnings of the report).
          </div>
        ) : (
          <div className="viewer-wrap">
            <CaseViewer
              benchmark={benchmark}
              keyHelp={APP_KEY_HELP}
              views={views}
              colors={colors}
              image={img?.bitmap ?? null}
              imageStatus={img?.status ?? 'loading'}
              imagePath={first?.image_path ?? undefined}
              overlayImage={overlayImage}
              compare={gtOnly ? 'single' : compare}
              onPrevCase={previousCase}
              onNextCase={nextCase}
              onInstanceSelect={onInstanceSelect}
              gtEditor={fingerprint ? gtEditor : undefined}
              panelWidth={sizes.panel}
              onPanelWidth={(px) => setSize('panel', px)}
              panelExtra={
                <>
                  {caseId && <CaseFindings caseId={caseId} />}
                  {review}
                </>
              }
              focus={focus}
              toolbarStart={<MissingModels missing={missingModels} />}
            />
          </div>
        )}
      </div>
    </div>
  );
}

/** The shown models that have no record of this case, said in the viewer's toolbar. */
function MissingModels({ missing }: { missing: string[] }) {
  if (missing.length === 0) return null;
  return (
    <span className="no-pred" role="status" data-testid="viewer-missing-models" title="These shown models have no prediction for this case">
      no prediction: {missing.join(', ')}
    </span>
  );
}

const readImageBytes = (path: string) => scoringClient().getImageBytes(path);
