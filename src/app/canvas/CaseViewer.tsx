/**
 * CaseViewer — one case on its image, with every GT instance and prediction explained.
 *
 * Props:
 * - `benchmark`: which benchmark the records come from (labels and panels adapt to it).
 * - `views`: one `{ model, record }` per model for the same case (1 for a single model).
 * - `image`: the decoded image (use `decodeImage(blob)` from ./decode, which applies EXIF
 *   orientation), or null; `imageStatus` says why it is null ('loading' | 'missing' | 'error');
 *   `imagePath` is shown when the image is missing.
 * - `overlayImage`: the dataset's own overlay (gansulishuzhi's red-box pages), toggled with `o`.
 * - `compare`: 'single' (first view), 'side-by-side' (a pane per model, zoom and pan linked) or
 *   'overlay' (all models in one pane, each in its own colour).
 * - `onPrevCase` / `onNextCase`: called for ← / → (and k / j).
 * - `onInstanceSelect(model, side, id)`: called when the user selects a shape or a panel row.
 * - `ref`: a CaseViewerHandle (test hooks and programmatic control).
 * - `keyboard`: false to leave the keys to the page (default true).
 * - `gtEditor`: when given, an "Edit GT" toggle (key `c`) appears; while it is on, the viewer
 *   stops drawing the original GT itself and renders `gtEditor(frame)` over the first pane, with
 *   the live view transform and sizes (GtEditorFrame). Wheel zoom and the zoom keys keep working.
 *
 * - `colors`: each view's colour (the app passes the model's colour among all loaded models);
 *   default MODEL_COLORS in view order. Used by the overlay, the legend and the pane labels.
 * - `panelWidth` / `onPanelWidth`: the details panel's width, and a keyboard-accessible splitter
 *   between canvas and panel that reports a new one (without `onPanelWidth`: no splitter).
 * - `panelExtra`: rendered at the bottom of the details panel (the app's review panel).
 * - `toolbarStart`: rendered first in the viewer's toolbar (the app's compare / model controls).
 * - `focus`: an instance of the first view to select and zoom to once the case is on screen
 *   (the app's GT health finding); a new `seq` selects it again.
 *
 * Geometry is in image pixels; the instances' `state` decides colour and dash (see style.ts).
 */
import { memo, useCallback, useEffect, useImperativeHandle, useMemo, useRef, useState, type ReactNode, type Ref } from 'react';
import type Konva from 'konva';
import type { BenchmarkId, CaseRecord } from '../../core/model';
import { ALL_LAYERS, beginLabels, placedLabels, planLabels, type LayerToggles } from './draw';
import { labelBox } from './labels';
import { errorCauses } from './errorCause';
import { explain, explanationText, type Explanation } from './explain';
import { SpatialIndex } from './hitTest';
import { keyLabel, VIEWER_KEY_HELP, type KeyHelpSection } from '../keyHelp';
import { EditorFrame, type GtEditorFrame } from './EditorFrame';
import { Pane, type PaneProps } from './Pane';
import { buildScene, countByState, errorOrder, instanceKey, panesFor, type CaseView, type SceneItem, type Side } from './scene';
import { modelColor } from './style';
import { Splitter } from '../layout/Splitter';
import { LIMITS } from '../layout/paneSizes';
import { actualSize, fitTransform, paneGrid, toScreen, zoomAt, zoomToRect, type ViewTransform } from './transform';
import { useViewerKeys } from './useViewerKeys';
import { useElementSize } from './useElementSize';
import { useLiveTransform, useTransformUpdater, ViewStore } from './viewStore';
import { InstancePanel } from '../viewer/InstancePanel';
import { TextDiff } from '../viewer/TextDiff';
import { GlyphText } from '../viewer/GlyphText';

export type CompareMode = 'single' | 'side-by-side' | 'overlay';
export type ImageStatus = 'loading' | 'ok' | 'missing' | 'error';

export interface CaseViewerProps {
  benchmark: BenchmarkId;
  /** The keyboard help's sections (keyHelp.ts): the app passes all of its keys; default the viewer's. */
  keyHelp?: readonly KeyHelpSection[];
  views: { model: string; record: CaseRecord }[];
  image: ImageBitmap | null;
  imageStatus: ImageStatus;
  imagePath?: string;
  overlayImage?: ImageBitmap | null;
  compare: CompareMode;
  onPrevCase?(): void;
  onNextCase?(): void;
  onInstanceSelect?(model: string, side: Side, id: number): void;
  keyboard?: boolean;
  ref?: Ref<CaseViewerHandle>;
  gtEditor?: (frame: GtEditorFrame) => ReactNode;
  colors?: readonly string[];
  panelWidth?: number;
  onPanelWidth?(px: number): void;
  panelExtra?: ReactNode;
  toolbarStart?: ReactNode;
  focus?: { side: Side; id: number; seq: number } | null;
}

export type { GtEditorFrame };

export interface HitInfo {
  pane: number;
  model: string;
  side: Side;
  id: number;
  state: string;
}

/** What tests and the page may ask of the viewer. Client coordinates are the page's CSS pixels. */
export interface CaseViewerHandle {
  transform(): ViewTransform;
  setTransform(t: ViewTransform): void;
  /** The transforms the Konva layers actually carry, per pane (checks linked zoom). */
  paneTransforms(): ViewTransform[];
  /** What the last frame drew in a pane, by "side:state". */
  drawnCounts(pane?: number): Record<string, number>;
  /** All instances with geometry in a pane, by "side:state" (drawn or not). */
  sceneCounts(pane?: number): Record<string, number>;
  instanceAt(clientX: number, clientY: number): HitInfo | null;
  /** The client position of an image point in a pane. */
  clientPoint(pane: number, ix: number, iy: number): [number, number];
  /** The outline of an instance, in image pixels. */
  outline(pane: number, side: Side, id: number): number[] | null;
  /** RGBA of the static-shapes layer at a client point (transparent where nothing is drawn). */
  shapePixel(clientX: number, clientY: number): [number, number, number, number] | null;
  selected(): { view: number; side: Side; id: number } | null;
  layers(): LayerToggles;
  errorOrder(pane?: number): { side: Side; id: number }[];
  /** The labels placed at the current view in a pane (labels.ts, measured with the page's font): text and box in pane pixels. */
  labelBoxes(pane?: number): { text: string; short: boolean; x0: number; y0: number; x1: number; y1: number }[];
}

declare global {
  interface Window {
    /** The viewer on screen (the last one mounted), for browser tests of the real app. */
    __caseViewer?: CaseViewerHandle | null;
  }
}

/** A ref that publishes the handle as `window.__caseViewer` (and clears it on unmount). */
function exposeForTests(h: CaseViewerHandle | null): void {
  if (typeof window !== 'undefined') window.__caseViewer = h;
}

interface Selection {
  view: number;
  side: Side;
  id: number;
}

/** The side panel takes at most this share of the viewer, so the canvas keeps the rest. */
const PANEL_WIDTH = 'clamp(200px, 34%, 360px)';

export function CaseViewer(props: CaseViewerProps) {
  const { views, compare, image, imageStatus, overlayImage, onNextCase, onPrevCase, onInstanceSelect } = props;
  const panes = useMemo(() => panesFor(views as CaseView[], compare), [views, compare]);
  const scenes = useMemo(() => panes.map((p) => buildScene(p, props.benchmark)), [panes, props.benchmark]);
  const indexes = useMemo(() => scenes.map((s) => new SpatialIndex(s.items)), [scenes]);
  const lookup = useMemo(() => scenes.map((s) => new Map(s.items.map((it) => [instanceKey(it.view, it.side, it.id), it]))), [scenes]);
  const caseKey = views.map((v) => `${v.model}\u0000${v.record.case_id}`).join('\u0001') + `|${compare}`;

  const colors = useMemo(() => views.map((_, i) => props.colors?.[i] ?? modelColor(i)), [views, props.colors]);
  const [area, areaRef] = useElementSize<HTMLDivElement>();

  const [layers, setLayers] = useState<LayerToggles>(ALL_LAYERS);
  const [showHelp, setShowHelp] = useState(false);
  const [showOverlayImage, setShowOverlayImage] = useState(false);
  const [showPanel, setShowPanel] = useState(true);
  const [editGt, setEditGt] = useState(false);
  const editing = editGt && !!props.gtEditor;
  // The details panel stays while editing (issue #42 item 9): the GT list and the case's facts
  // are what a correction is checked against ("details" still folds it for room).
  const toggleEditGt = () => {
    if (!props.gtEditor) return;
    setEditGt(!editGt);
  };
  // The editor draws the (corrected) GT itself; the pane keeps only the predictions.
  const paneLayers = useMemo(() => (editing ? { ...layers, gt: false, dontcare: false } : layers), [editing, layers]);
  const [activePane, setActivePane] = useState(0);
  // The live view, outside React state (viewStore.ts): a pan or zoom step re-renders only what
  // shows it. It belongs to one case: stored with the case key, the fit view for any other case.
  const [viewStore] = useState(() => new ViewStore());
  const [sel, setSel] = useState<{ caseKey: string; s: Selection; errorIdx: number } | null>(null);
  const [hover, setHover] = useState<{ pane: number; key: number; sx: number; sy: number } | null>(null);

  const shown = showOverlayImage && overlayImage ? overlayImage : image;
  // The record's own size first: while the next case's image decodes, the previous image is
  // still on screen and must not decide the fit.
  const first = views[0]?.record;
  const extent = useMemo(() => {
    if (first?.width && first.height && first.width > 0 && first.height > 0) return { w: first.width, h: first.height };
    if (image) return { w: image.width, h: image.height };
    return { w: scenes[0]?.width ?? 1, h: scenes[0]?.height ?? 1 };
  }, [first, image, scenes]);
  // Linked panes in the grid that shows the image largest (one row unless another is much better).
  const grid = paneGrid(panes.length, area.width, area.height, extent.w, extent.h);
  const paneW = panes.length > 0 ? Math.max(1, Math.floor(area.width / grid.cols)) : 1;
  const paneH = Math.max(1, Math.floor(area.height / grid.rows));
  const fit = useMemo(() => fitTransform(extent.w, extent.h, paneW, paneH), [extent, paneW, paneH]);
  /** The view now (event handlers and test hooks read it; rendering subscribes instead). */
  const currentView = () => viewStore.get(caseKey, fit);
  const setView = (t: ViewTransform) => viewStore.set(caseKey, t);
  const updateTransform = useTransformUpdater(viewStore, caseKey, fit);

  const selection = sel && sel.caseKey === caseKey ? sel.s : null;
  const errorIdx = sel && sel.caseKey === caseKey ? sel.errorIdx : -1;
  const paneOfView = useCallback((v: number) => (compare === 'side-by-side' ? v : 0), [compare]);
  const selectedItem: SceneItem | null = selection ? (lookup[paneOfView(selection.view)]?.get(instanceKey(selection.view, selection.side, selection.id)) ?? null) : null;

  const select = useCallback(
    (s: Selection | null, zoom: boolean, errorIndex = -1) => {
      if (!s) {
        setSel(null);
        return;
      }
      setSel({ caseKey, s, errorIdx: errorIndex });
      const pane = paneOfView(s.view);
      setActivePane(pane);
      const it = lookup[pane]?.get(instanceKey(s.view, s.side, s.id));
      if (zoom && it) viewStore.set(caseKey, zoomToRect(it.bounds, paneW, paneH, 0.33, fit.scale));
      onInstanceSelect?.(views[s.view]?.model ?? '', s.side, s.id);
    },
    [caseKey, viewStore, lookup, paneOfView, paneW, paneH, fit.scale, onInstanceSelect, views],
  );

  // A focus is applied once per (case, seq), when its instance is in the scene and the pane has
  // its size (the zoom needs it).
  const focused = useRef<string | null>(null);
  const focus = props.focus;
  useEffect(() => {
    if (!focus || paneW <= 1 || paneH <= 1) return;
    const key = `${caseKey}|${focus.seq}`;
    if (focused.current === key) return;
    if (!lookup[0]?.has(instanceKey(0, focus.side, focus.id))) return;
    focused.current = key;
    select({ view: 0, side: focus.side, id: focus.id }, true);
  }, [focus, caseKey, lookup, paneW, paneH, select]);

  const onHover = useCallback((pane: number, key: number, sx: number, sy: number) => {
    setHover((h) => (key < 0 ? (h ? null : h) : h && h.pane === pane && h.key === key && Math.abs(h.sx - sx) < 1 && Math.abs(h.sy - sy) < 1 ? h : { pane, key, sx, sy }));
  }, []);
  const onPick = useCallback(
    (pane: number, key: number) => {
      const it = scenes[pane]?.items[key];
      setActivePane(pane);
      select(it ? { view: it.view, side: it.side, id: it.id } : null, false);
    },
    [scenes, select],
  );

  const stages = useRef<(Konva.Stage | null)[]>([]);
  const registerStage = useCallback((pane: number, s: Konva.Stage | null) => {
    stages.current[pane] = s;
  }, []);
  const stats = useMemo(() => panes.map(() => ({}) as Record<string, number>), [panes]);

  const errors = useMemo(() => errorOrder(scenes[Math.min(activePane, scenes.length - 1)]?.items ?? []), [scenes, activePane]);
  const stepError = (dir: 1 | -1) => {
    if (errors.length === 0) return;
    const i = errorIdx < 0 ? (dir === 1 ? 0 : errors.length - 1) : (errorIdx + dir + errors.length) % errors.length;
    const it = errors[i];
    select({ view: it.view, side: it.side, id: it.id }, true, i);
  };

  const toggle = (k: keyof LayerToggles) => setLayers((l) => ({ ...l, [k]: !l[k] }));
  useViewerKeys(
    {
      nextCase: onNextCase,
      prevCase: onPrevCase,
      nextError: () => stepError(1),
      prevError: () => stepError(-1),
      toggleGt: () => toggle('gt'),
      togglePred: () => toggle('pred'),
      toggleDontcare: () => toggle('dontcare'),
      toggleLabels: () => toggle('labels'),
      toggleOverlayImage: () => overlayImage && setShowOverlayImage((v) => !v),
      fit: () => setView(fit),
      actualSize: () => setView(actualSize(currentView(), paneW, paneH)),
      zoomIn: () => updateTransform((t) => zoomAt(t, paneW / 2, paneH / 2, 1.25)),
      zoomOut: () => updateTransform((t) => zoomAt(t, paneW / 2, paneH / 2, 0.8)),
      toggleEditGt,
      help: () => setShowHelp((v) => !v),
      close: () => (showHelp ? setShowHelp(false) : setSel(null)),
    },
    props.keyboard !== false,
  );

  const paneRect = (pane: number) => areaRef.current?.querySelector<HTMLElement>(`[data-testid="viewer-pane-${pane}"]`)?.getBoundingClientRect() ?? null;
  const makeHandle = (): CaseViewerHandle => ({
    transform: currentView,
    setTransform: setView,
    paneTransforms: () =>
      stages.current.slice(0, panes.length).map((s) => {
        const l = s?.getLayers()[1];
        return l ? { scale: l.scaleX(), x: l.x(), y: l.y() } : { scale: NaN, x: NaN, y: NaN };
      }),
    drawnCounts: (pane = 0) => ({ ...stats[pane] }),
    sceneCounts: (pane = 0) => countByState(scenes[pane]?.items ?? []),
    labelBoxes: (pane = 0) => {
      // The drawing's own steps (planLabels, then placeLabels with the label font's measures).
      const ctx = document.createElement('canvas').getContext('2d');
      if (!ctx) return [];
      beginLabels(ctx, 1);
      const o = { transform: currentView(), width: paneW, height: paneH, pixelRatio: 1, layers: paneLayers, overlay: compare === 'overlay', colors };
      return placedLabels(ctx, planLabels(scenes[pane]?.items ?? [], o), o.transform).flatMap((p) => (p ? [{ text: p.text, short: p.short, ...labelBox(p) }] : []));
    },
    instanceAt: (cx, cy) => {
      for (let pane = 0; pane < panes.length; pane++) {
        const r = paneRect(pane);
        if (!r || cx < r.left || cx >= r.right || cy < r.top || cy >= r.bottom) continue;
        const t = currentView();
        const ix = (cx - r.left - t.x) / t.scale;
        const iy = (cy - r.top - t.y) / t.scale;
        const k = indexes[pane].hit(ix, iy, 4 / t.scale, (s) => (s.state === 'dontcare' ? layers.dontcare : s.side === 'gt' ? layers.gt : layers.pred));
        const it = scenes[pane].items[k];
        return it ? { pane, model: views[it.view]?.model ?? '', side: it.side, id: it.id, state: it.state } : null;
      }
      return null;
    },
    clientPoint: (pane, ix, iy) => {
      const r = paneRect(pane);
      const [sx, sy] = toScreen(currentView(), ix, iy);
      return [(r?.left ?? 0) + sx, (r?.top ?? 0) + sy];
    },
    outline: (pane, side, id) => {
      const it = scenes[pane]?.items.find((i) => i.side === side && i.id === id && (side === 'gt' || panes[pane].length === 1 || i.view === panes[pane][0].index));
      return it ? [...it.points] : null;
    },
    shapePixel: (cx, cy) => {
      for (let pane = 0; pane < panes.length; pane++) {
        const r = paneRect(pane);
        const layer = stages.current[pane]?.getLayers()[1];
        if (!r || !layer || cx < r.left || cx >= r.right || cy < r.top || cy >= r.bottom) continue;
        const canvas = layer.getCanvas();
        const pr = canvas.getPixelRatio();
        const d = canvas.getContext()._context.getImageData(Math.floor((cx - r.left) * pr), Math.floor((cy - r.top) * pr), 1, 1).data;
        return [d[0], d[1], d[2], d[3]];
      }
      return null;
    },
    selected: () => selection,
    layers: () => layers,
    errorOrder: (pane = 0) => errorOrder(scenes[pane]?.items ?? []).map((it) => ({ side: it.side, id: it.id })),
  });
  useImperativeHandle(props.ref, makeHandle);
  // The app passes no ref; browser tests of the real app reach the viewer through this instead.
  useImperativeHandle(exposeForTests, makeHandle);

  // The instances behind a highlighted FN / FP's error class are highlighted with it (errorCause.ts).
  const withCauses = (items: SceneItem[], index: Map<string, SceneItem> | undefined) => {
    const out = [...items];
    for (const it of items) for (const c of errorCauses(it.inst)) {
      const hit = index?.get(instanceKey(it.view, c.side, c.id));
      if (hit && !out.includes(hit)) out.push(hit);
    }
    return out;
  };
  const hovered = hover ? scenes[hover.pane]?.items[hover.key] : undefined;
  const tipItem = hovered ?? selectedItem ?? undefined;
  const tipPane = hovered ? hover!.pane : selectedItem ? paneOfView(selectedItem.view) : -1;
  // A hover tip sits at the pointer; a selection's tip follows its shape (PinnedTooltip).
  const hoverPos: [number, number] | null = hovered ? [hover!.sx + 14, hover!.sy + 14] : null;
  const tip = tipItem ? explain(tipItem.side, tipItem.inst, views.length > 1 ? views[tipItem.view]?.model : undefined) : null;

  const activeViews = panes[Math.min(activePane, panes.length - 1)] ?? [];
  // Side by side, the panel lists every pane's predictions (GT once, with the first pane's
  // states, as its canvas draws them), so two models can be compared row by row; a row of the
  // second model still selects and zooms in the pane that draws it (select → paneOfView).
  const sideBySide = compare === 'side-by-side' && panes.length > 1;
  const panelViews = useMemo(() => (sideBySide ? panes.flat() : (panes[Math.min(activePane, panes.length - 1)] ?? [])), [sideBySide, panes, activePane]);
  const selectedKey = selection ? instanceKey(selection.view, selection.side, selection.id) : null;
  const onRowSelect = useCallback((v: number, side: Side, id: number) => select({ view: v, side, id }, true), [select]);
  const statusText = imageStatus === 'ok' ? null : imageStatus === 'loading' ? 'loading image…' : imageStatus === 'missing' ? `image not found${props.imagePath ? `: ${props.imagePath}` : ''}` : `image could not be decoded${props.imagePath ? `: ${props.imagePath}` : ''}`;

  return (
    <div className="bl-case-viewer" data-testid="case-viewer" data-benchmark={props.benchmark} style={{ display: 'flex', width: '100%', height: '100%', minHeight: 0, color: '#eee', background: '#181818', fontFamily: 'system-ui, sans-serif' }}>
      <div style={{ flex: 1, display: 'flex', flexDirection: 'column', minWidth: 0 }}>
        <div role="toolbar" aria-label="viewer" style={{ display: 'flex', gap: 8, alignItems: 'center', padding: '4px 6px', fontSize: 13, flexWrap: 'wrap' }}>
          {props.toolbarStart}
          <button type="button" onClick={() => setView(fit)} title="fit (f)">Fit</button>
          <button type="button" onClick={() => setView(actualSize(currentView(), paneW, paneH))} title="actual size (1)">1:1</button>
          <ZoomLevel store={viewStore} caseKey={caseKey} fit={fit} />
          {(['gt', 'pred', 'dontcare', 'labels'] as const).map((k) => (
            <label key={k} title={k === 'gt' ? 'ground truth (g)' : k === 'pred' ? 'predictions (p)' : k === 'dontcare' ? "don't-care regions (d)" : 'labels (l)'}>
              <input type="checkbox" checked={layers[k]} onChange={() => toggle(k)} data-testid={`layer-${k}`} /> {k === 'gt' ? 'GT' : k === 'pred' ? 'pred' : k === 'dontcare' ? "don't care" : 'labels'}
            </label>
          ))}
          {overlayImage && (
            <label>
              <input type="checkbox" checked={showOverlayImage} onChange={() => setShowOverlayImage((v) => !v)} data-testid="overlay-image" /> dataset overlay (o)
            </label>
          )}
          {compare === 'overlay' &&
            views.map((v, i) => (
              <span key={v.model} data-testid="model-legend" data-model={v.model} title={v.model} className="bl-legend-item" style={{ color: colors[i] }}>
                ■ <bdi>{v.model}</bdi>
              </span>
            ))}
          <span style={{ opacity: 0.7 }} title="next / previous error: e / E">
            errors {errors.length === 0 ? 0 : `${errorIdx + 1 > 0 ? errorIdx + 1 : '–'}/${errors.length}`}
          </span>
          {props.gtEditor && (
            <button type="button" onClick={toggleEditGt} aria-pressed={editing} data-testid="toggle-edit-gt" title="correct the ground truth (c)">
              Edit GT
            </button>
          )}
          <button type="button" onClick={() => setShowPanel((v) => !v)} aria-pressed={showPanel} data-testid="toggle-panel" title="show / hide the details panel">
            details
          </button>
          <button type="button" onClick={() => setShowHelp((v) => !v)} aria-label="keyboard help" title="keyboard help (?)">?</button>
        </div>
        <div ref={areaRef} style={{ position: 'relative', flex: 1, minHeight: 0, display: 'flex', flexWrap: 'wrap', alignContent: 'flex-start' }}>
          {area.width > 0 &&
            panes.map((pv, i) => (
              <div key={i} style={{ position: 'relative', width: paneW, height: paneH }}>
                <LivePane
                  store={viewStore}
                  caseKey={caseKey}
                  fit={fit}
                  pane={i}
                  scene={scenes[i]}
                  index={indexes[i]}
                  image={shown}
                  width={paneW}
                  height={paneH}
                  layers={paneLayers}
                  overlay={compare === 'overlay'}
                  colors={colors}
                  highlight={withCauses(
                    [...(hovered && hover!.pane === i ? [hovered] : []), ...(selectedItem && paneOfView(selectedItem.view) === i && selectedItem !== hovered ? [selectedItem] : [])],
                    lookup[i],
                  )}
                  stats={stats[i]}
                  updateTransform={updateTransform}
                  onHover={onHover}
                  onPick={onPick}
                  registerStage={registerStage}
                  glide={!(editing && props.gtEditor)}
                />
                {editing && i === 0 && props.gtEditor && (
                  <LiveEditorFrame store={viewStore} caseKey={caseKey} fit={fit} width={paneW} height={paneH} imageWidth={extent.w} imageHeight={extent.h} updateTransform={updateTransform} render={props.gtEditor} />
                )}
                {panes.length > 1 && (
                  <div data-testid="pane-label" style={{ position: 'absolute', left: 6, top: 4, fontSize: 12, background: 'rgba(0,0,0,0.6)', padding: '1px 4px', pointerEvents: 'none', borderLeft: `4px solid ${colors[pv[0]?.index ?? 0]}` }}>
                    {pv.map((v) => v.model).join(' + ')}
                  </div>
                )}
                {statusText && (
                  <div data-testid="image-status" style={{ position: 'absolute', left: 6, bottom: 6, fontSize: 12, background: 'rgba(0,0,0,0.7)', padding: '2px 6px', pointerEvents: 'none' }}>
                    {statusText}
                  </div>
                )}
                {tip && tipPane === i &&
                  (hoverPos ? (
                    <Tooltip tip={tip} pos={hoverPos} paneW={paneW} paneH={paneH} />
                  ) : (
                    <PinnedTooltip tip={tip} item={selectedItem!} store={viewStore} caseKey={caseKey} fit={fit} paneW={paneW} paneH={paneH} />
                  ))}
              </div>
            ))}
          {showHelp && <HelpOverlay sections={props.keyHelp ?? [VIEWER_KEY_HELP]} onClose={() => setShowHelp(false)} />}
        </div>
      </div>
      {showPanel && props.onPanelWidth && props.panelWidth !== undefined && (
        <Splitter value={props.panelWidth} min={LIMITS.panel.min} max={LIMITS.panel.max} direction={-1} onChange={props.onPanelWidth} label="Resize the details panel" testId="splitter-panel" />
      )}
      <aside
        hidden={!showPanel}
        data-testid="details-panel"
        style={{ width: props.panelWidth ?? PANEL_WIDTH, flex: 'none', display: showPanel ? 'flex' : 'none', flexDirection: 'column', borderLeft: '1px solid #333', minHeight: 0 }}
      >
        {first && (
          <div data-testid="panel-case-id" title={first.image_path ?? first.case_id} style={{ padding: '4px 8px', fontSize: 12, fontFamily: 'ui-monospace, monospace', wordBreak: 'break-all', borderBottom: '1px solid #333', flex: 'none' }}>
            {first.case_id}
            {first.task ? <span style={{ opacity: 0.7 }}> · {first.task}</span> : null}
          </div>
        )}
        {activeViews.map((v) => (
          <TextDiff key={v.index} record={v.record} model={activeViews.length > 1 ? v.model : undefined} />
        ))}
        <InstancePanel pane={panelViews} gtStatesOf={sideBySide ? panelViews[0]?.model : undefined} selected={selectedKey} onSelect={onRowSelect} />
        {props.panelExtra && <div style={{ flex: 'none', maxHeight: '40%', overflow: 'auto', borderTop: '1px solid #333', background: '#fff', color: '#1f2937' }}>{props.panelExtra}</div>}
      </aside>
    </div>
  );
}

function HelpOverlay({ onClose, sections }: { onClose(): void; sections: readonly KeyHelpSection[] }) {
  return (
    <div role="dialog" aria-label="keyboard help" data-testid="viewer-help" style={{ position: 'absolute', inset: 24, background: 'rgba(10,10,10,0.94)', border: '1px solid #666', borderRadius: 6, padding: 16, overflow: 'auto', zIndex: 5 }}>
      <h3 style={{ marginTop: 0 }}>Keyboard</h3>
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: '8px 32px', alignItems: 'flex-start' }}>
        {sections.map((s) => (
          <table key={s.title} data-testid="key-help-section" data-title={s.title} style={{ flex: '1 1 300px', maxWidth: 460 }}>
            <caption style={{ textAlign: 'left', fontWeight: 600, padding: '4px 0' }}>{s.title}</caption>
            <tbody>
              {s.rows.map((r) => (
                <tr key={r.keys.join(' ')}>
                  <td style={{ paddingRight: 16, whiteSpace: 'nowrap' }}>{r.keys.map((k) => <kbd key={k} style={{ marginRight: 4, border: '1px solid #888', borderRadius: 3, padding: '0 4px' }}>{keyLabel(k)}</kbd>)}</td>
                  <td>{r.help}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
      </div>
      <p>Mouse: wheel zooms at the cursor, drag pans, click a shape to select it and see why it is what it is.</p>
      <button type="button" onClick={onClose}>Close (Esc)</button>
    </div>
  );
}

/** What the live-view components below need to read the view (viewStore.ts). */
interface LiveView {
  store: ViewStore;
  caseKey: string;
  fit: ViewTransform;
}

function ZoomLevel({ store, caseKey, fit }: LiveView) {
  const t = useLiveTransform(store, caseKey, fit);
  return <span data-testid="zoom-level">{Math.round(t.scale * 100)}%</span>;
}

/** A pane at the live view: of the viewer, only this re-renders on a pan or zoom step. */
const LivePane = memo(function LivePane({ store, caseKey, fit, ...rest }: LiveView & Omit<PaneProps, 'transform'>) {
  return <Pane {...rest} transform={useLiveTransform(store, caseKey, fit)} />;
});

function LiveEditorFrame({ store, caseKey, fit, ...rest }: LiveView & Omit<Parameters<typeof EditorFrame>[0], 'transform'>) {
  return <EditorFrame {...rest} transform={useLiveTransform(store, caseKey, fit)} />;
}

function Tooltip({ tip, pos, paneW, paneH }: { tip: Explanation; pos: [number, number]; paneW: number; paneH: number }) {
  return (
    <div data-testid="viewer-tooltip" role="tooltip" aria-label={explanationText(tip)} style={{ position: 'absolute', left: Math.min(pos[0], paneW - 260), top: Math.min(pos[1], paneH - 80), maxWidth: 320, background: 'rgba(20,20,20,0.92)', border: '1px solid #555', borderRadius: 4, padding: '4px 8px', fontSize: 12, pointerEvents: 'none', zIndex: 2 }}>
      <div style={{ fontWeight: 600 }}>{tip.title}</div>
      {tip.facts.map((f) => (
        <div key={f.label}>
          <span style={{ opacity: 0.7 }}>{f.label}: </span>
          <GlyphText text={f.value} />
        </div>
      ))}
      {tip.reason && (
        <div style={{ fontStyle: 'italic' }}>
          <GlyphText text={tip.reason} />
        </div>
      )}
    </div>
  );
}

/** The selected shape's tooltip, at its lower right corner at the live view. */
function PinnedTooltip({ item, store, caseKey, fit, ...rest }: LiveView & { tip: Explanation; item: SceneItem; paneW: number; paneH: number }) {
  const t = useLiveTransform(store, caseKey, fit);
  const [sx, sy] = toScreen(t, item.bounds.x1, item.bounds.y1);
  return <Tooltip {...rest} pos={[sx + 6, sy + 6]} />;
}
