/**
 * GT editing on the canvas (react-konva). Two ways to mount it:
 *
 * 1. <GtEditorLayer> — a Konva <Layer> to drop into the viewer's own <Stage> (the Stage must
 *    listen to events, i.e. not `listening={false}`). Controlled:
 *      instances    EditableGt[] (corrections.effectiveGt(case.gt, rows)) in image coordinates
 *      caseId       the case's id (put on every correction)
 *      transform    the view transform { scale, x, y } (screen = image * scale + offset); the
 *                   layer applies it, and handles keep a constant on-screen size with `scale`
 *      imageWidth/imageHeight  the area in which new shapes can be drawn
 *      mode         'select' | 'addBox' | 'addPolygon'
 *      selectedKey / onSelect(key | null)
 *      onCommit(edit: CorrectionEdit)   called once per confirmed edit (drag end, transform end,
 *                   finished shape), never during a drag; the caller stores it with
 *                   corrections.commitCorrection(fingerprint, edit)
 *      onModeDone() called after a shape was added (the toolbar goes back to "select")
 *    Boxes get a Konva Transformer (resize, move); polygons get draggable vertex handles
 *    (Alt+click a handle removes the vertex) and move as a whole when dragged. Add a box by
 *    click-dragging; add a polygon by clicking its points and clicking the first point again
 *    (or double-clicking) to close it; Escape drops the unfinished one.
 *
 * 2. <GtEditorOverlay> — self-contained: its own transparent Stage of width × height, placed
 *    absolutely over the viewer canvas (the parent must be `position: relative`), plus
 *    <GtEditorToolbar> (mode, text, don't-care, delete / restore, revert) above it. Same props
 *    as the layer minus the controlled state.
 */
import type Konva from 'konva';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Circle, Group, Layer, Line, Rect, Stage, Transformer } from 'react-konva';
import type { ViewTransform } from '../canvas/transform';
import { editFor, reshapedOriginal, revertFor, type CorrectionEdit, type EditableGt } from './corrections';
import { boxFromDrag, boxFromRect, moveVertex, removeVertex, roundCoords, translate } from './editGeometry';

export type GtEditorMode = 'select' | 'addBox' | 'addPolygon';

export interface GtEditorLayerProps {
  instances: readonly EditableGt[];
  caseId: string;
  transform: ViewTransform;
  imageWidth: number;
  imageHeight: number;
  mode: GtEditorMode;
  selectedKey: string | null;
  onSelect: (key: string | null) => void;
  onCommit: (edit: CorrectionEdit) => void;
  onModeDone?: () => void;
}

// Apart from the viewer's state colours (style.ts: blue predictions, green / orange / vermillion
// GT and FP), since the predictions stay drawn underneath while editing.
const COLOR = { care: '#ffffff', dontcare: '#9e9e9e', corrected: '#ff40ff', selected: '#ffd600', draft: '#00e5ff', original: '#bdbdbd' };


function colorOf(g: EditableGt, selected: boolean): string {
  if (selected) return COLOR.selected;
  if (g.corrected) return COLOR.corrected;
  return g.care ? COLOR.care : COLOR.dontcare;
}

type Pt = { x: number; y: number };

export function GtEditorLayer(p: GtEditorLayerProps) {
  const { instances, caseId, transform, imageWidth, imageHeight, mode, selectedKey, onSelect, onCommit, onModeDone } = p;
  const s = transform.scale;
  const layerRef = useRef<Konva.Layer>(null);
  const trRef = useRef<Konva.Transformer>(null);
  const boxRefs = useRef(new Map<string, Konva.Rect>());
  // Live feedback during a vertex drag, dropped on commit.
  const [dragPoly, setDragPoly] = useState<{ key: string; points: number[] } | null>(null);
  const [draftBox, setDraftBox] = useState<{ a: Pt; b: Pt } | null>(null);
  const [draftPoly, setDraftPoly] = useState<number[]>([]);

  const selected = instances.find((g) => g.key === selectedKey) ?? null;
  useEffect(() => {
    const tr = trRef.current;
    if (!tr) return;
    const node = selected && selected.shape?.type === 'box' && !selected.deleted ? boxRefs.current.get(selected.key) : undefined;
    tr.nodes(node ? [node] : []);
    tr.getLayer()?.batchDraw();
  }, [selected, instances]);

  useEffect(() => {
    if (mode !== 'addPolygon' && mode !== 'addBox') return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        setDraftPoly([]);
        setDraftBox(null);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [mode]);

  const pointer = (): Pt | null => layerRef.current?.getRelativePointerPosition() ?? null;
  const commitShape = (g: EditableGt, shape: EditableGt['shape']) => onCommit(editFor(g, caseId, { shape }));

  const finishPolygon = (pts: number[]) => {
    if (pts.length >= 6) {
      onCommit({ correction: { case_id: caseId, gt_id: null, shape: { type: 'polygon', points: roundCoords(pts) }, care: true } });
      onModeDone?.();
    }
    setDraftPoly([]);
  };

  const onBackgroundDown = (e: Konva.KonvaEventObject<MouseEvent>) => {
    const pt = pointer();
    if (!pt) return;
    if (mode === 'select') onSelect(null);
    else if (mode === 'addBox') setDraftBox({ a: pt, b: pt });
    else if (mode === 'addPolygon') {
      if (e.evt.detail >= 2) return finishPolygon(draftPoly); // double-click closes
      const first = draftPoly.length >= 6 ? { x: draftPoly[0], y: draftPoly[1] } : null;
      if (first && Math.hypot(first.x - pt.x, first.y - pt.y) <= 8 / s) return finishPolygon(draftPoly);
      setDraftPoly([...draftPoly, pt.x, pt.y]);
    }
  };
  const onBackgroundMove = () => {
    if (mode !== 'addBox' || !draftBox) return;
    const pt = pointer();
    if (pt) setDraftBox({ a: draftBox.a, b: pt });
  };
  const onBackgroundUp = () => {
    if (mode !== 'addBox' || !draftBox) return;
    const box = boxFromDrag(draftBox.a.x, draftBox.a.y, draftBox.b.x, draftBox.b.y, 3 / s);
    setDraftBox(null);
    if (box) {
      onCommit({ correction: { case_id: caseId, gt_id: null, shape: { type: 'box', box: roundCoords(box) as [number, number, number, number] }, care: true } });
      onModeDone?.();
    }
  };

  const editable = mode === 'select';
  return (
    <Layer ref={layerRef} x={transform.x} y={transform.y} scaleX={s} scaleY={s} name="gt-editor">
      {/* Catches clicks on empty image: deselect, or draw a new shape. */}
      <Rect x={0} y={0} width={imageWidth} height={imageHeight} fill="rgba(0,0,0,0.001)" onMouseDown={onBackgroundDown} onMouseMove={onBackgroundMove} onMouseUp={onBackgroundUp} name="gt-editor-bg" />
      {/* The dataset's own outline stays visible, dashed grey, beside every reshaped instance. */}
      {instances.map((g) => {
        const orig = reshapedOriginal(g);
        // A dark under-stroke keeps the light dashes visible on light and dark images alike.
        return orig ? (
          <Group key={`orig-${g.key}`} name={`original-${g.key}`} listening={false}>
            <Line points={orig} closed stroke="rgba(0,0,0,0.6)" strokeWidth={3 / s} perfectDrawEnabled={false} />
            <Line points={orig} closed stroke={COLOR.original} strokeWidth={1.5 / s} dash={[5 / s, 4 / s]} perfectDrawEnabled={false} />
          </Group>
        ) : null;
      })}
      {/*
        A dark halo under every GT outline: the editor's white / grey strokes alone all but vanished
        on light images (issue #42 item 9). Not under the selected one, whose yellow stroke moves
        with a drag before the edit is committed.
      */}
      <Group listening={false} name="gt-halo">
        {instances.map((g) => {
          if (!g.shape || g.key === selectedKey || g.deleted) return null;
          const halo = { stroke: 'rgba(0,0,0,0.7)', strokeWidth: 4.5 / s, perfectDrawEnabled: false };
          if (g.shape.type === 'box') {
            const [x0, y0, x1, y1] = g.shape.box;
            return <Rect key={g.key} x={x0} y={y0} width={x1 - x0} height={y1 - y0} {...halo} />;
          }
          return <Line key={g.key} points={g.shape.points} closed {...halo} />;
        })}
      </Group>
      {instances.map((g) => {
        if (!g.shape) return null;
        const isSel = g.key === selectedKey;
        const stroke = colorOf(g, isSel);
        const common = {
          stroke,
          strokeWidth: (isSel ? 3 : 2) / s,
          dash: g.care ? undefined : [6 / s, 4 / s],
          opacity: g.deleted ? 0.35 : 1,
          perfectDrawEnabled: false,
          listening: editable,
          onMouseDown: (e: Konva.KonvaEventObject<MouseEvent>) => {
            e.cancelBubble = true;
            onSelect(g.key);
          },
        };
        if (g.shape.type === 'box') {
          const [x0, y0, x1, y1] = g.shape.box;
          return (
            <Rect
              key={g.key}
              name={`gt-${g.key}`}
              ref={(n) => {
                if (n) boxRefs.current.set(g.key, n);
                else boxRefs.current.delete(g.key);
              }}
              x={x0}
              y={y0}
              width={x1 - x0}
              height={y1 - y0}
              fill={isSel ? 'rgba(255,214,0,0.12)' : 'rgba(0,0,0,0.001)'}
              draggable={editable && isSel && !g.deleted}
              strokeScaleEnabled
              onDragEnd={(e) => {
                const n = e.target;
                commitShape(g, { type: 'box', box: roundCoords(boxFromRect(n.x(), n.y(), n.width(), n.height(), n.scaleX(), n.scaleY())) as [number, number, number, number] });
              }}
              onTransformEnd={(e) => {
                const n = e.target as Konva.Rect;
                const box = boxFromRect(n.x(), n.y(), n.width(), n.height(), n.scaleX(), n.scaleY());
                n.scaleX(1);
                n.scaleY(1);
                commitShape(g, { type: 'box', box: roundCoords(box) as [number, number, number, number] });
              }}
              {...common}
            />
          );
        }
        const pts = dragPoly?.key === g.key ? dragPoly.points : g.shape.points;
        return (
          <Group key={g.key} name={`gt-${g.key}`}>
            <Line
              points={pts}
              closed
              fill={isSel ? 'rgba(255,214,0,0.12)' : 'rgba(0,0,0,0.001)'}
              draggable={editable && isSel && !g.deleted}
              onDragEnd={(e) => {
                const n = e.target;
                const moved = translate(pts, n.x(), n.y());
                n.position({ x: 0, y: 0 });
                commitShape(g, { type: 'polygon', points: roundCoords(moved) });
              }}
              {...common}
            />
            {isSel &&
              editable &&
              !g.deleted &&
              Array.from({ length: pts.length / 2 }, (_, i) => (
                <Circle
                  key={i}
                  name={`vertex-${i}`}
                  x={pts[2 * i]}
                  y={pts[2 * i + 1]}
                  radius={5 / s}
                  fill="#fff"
                  stroke={COLOR.selected}
                  strokeWidth={1.5 / s}
                  draggable
                  onMouseDown={(e) => {
                    e.cancelBubble = true;
                    if (e.evt.altKey) {
                      const fewer = removeVertex(pts, i);
                      if (fewer) commitShape(g, { type: 'polygon', points: roundCoords(fewer) });
                    }
                  }}
                  onDragMove={(e) => setDragPoly({ key: g.key, points: moveVertex(pts, i, e.target.x(), e.target.y()) })}
                  onDragEnd={(e) => {
                    const next = moveVertex(pts, i, e.target.x(), e.target.y());
                    setDragPoly(null);
                    commitShape(g, { type: 'polygon', points: roundCoords(next) });
                  }}
                />
              ))}
          </Group>
        );
      })}
      {draftBox && (
        <Rect
          x={Math.min(draftBox.a.x, draftBox.b.x)}
          y={Math.min(draftBox.a.y, draftBox.b.y)}
          width={Math.abs(draftBox.b.x - draftBox.a.x)}
          height={Math.abs(draftBox.b.y - draftBox.a.y)}
          stroke={COLOR.draft}
          strokeWidth={2 / s}
          listening={false}
        />
      )}
      {draftPoly.length > 0 && (
        <Group listening={false}>
          <Line points={draftPoly} stroke={COLOR.draft} strokeWidth={2 / s} />
          {Array.from({ length: draftPoly.length / 2 }, (_, i) => (
            <Circle key={i} x={draftPoly[2 * i]} y={draftPoly[2 * i + 1]} radius={(i === 0 ? 6 : 4) / s} fill={i === 0 ? COLOR.draft : '#fff'} stroke={COLOR.draft} strokeWidth={1 / s} />
          ))}
        </Group>
      )}
      <Transformer ref={trRef} rotateEnabled={false} keepRatio={false} ignoreStroke flipEnabled={false} anchorSize={8} borderStroke={COLOR.selected} anchorStroke={COLOR.selected} />
    </Layer>
  );
}

export interface GtEditorToolbarProps {
  caseId: string;
  selected: EditableGt | null;
  mode: GtEditorMode;
  onMode: (m: GtEditorMode) => void;
  onCommit: (edit: CorrectionEdit) => void;
}

/** HTML controls for the editor: mode, and the selected instance's text / care / delete / revert. */
export function GtEditorToolbar({ caseId, selected, mode, onMode, onCommit }: GtEditorToolbarProps) {
  const [text, setText] = useState<{ key: string; value: string } | null>(null);
  const shownText = text && selected && text.key === selected.key ? text.value : (selected?.text ?? '');
  const commitText = () => {
    if (selected && text && text.key === selected.key && text.value !== (selected.text ?? '')) onCommit(editFor(selected, caseId, { text: text.value }));
    setText(null);
  };
  const revert = selected ? revertFor(selected, caseId) : null;
  return (
    <div className="gt-editor-toolbar" data-testid="gt-editor-toolbar" style={{ display: 'flex', gap: 6, alignItems: 'center', flexWrap: 'wrap' }}>
      {(['select', 'addBox', 'addPolygon'] as const).map((m) => (
        <button key={m} type="button" aria-pressed={mode === m} data-mode={m} onClick={() => onMode(m)}>
          {m === 'select' ? 'Select / edit' : m === 'addBox' ? 'Add box' : 'Add polygon'}
        </button>
      ))}
      {selected && (
        <>
          <span data-testid="gt-editor-selected">
            {selected.gt_id === null ? 'added GT' : `GT ${selected.gt_id}`}
            {selected.corrected ? ' (corrected)' : ''}
          </span>
          <label className="gt-text-field">
            text{' '}
            <input
              aria-label="GT text"
              placeholder={selected.gt_id === null ? 'type the new box’s text' : 'its text'}
              value={shownText}
              onChange={(e) => setText({ key: selected.key, value: e.target.value })}
              onKeyDown={(e) => e.key === 'Enter' && commitText()}
              onBlur={commitText}
            />
          </label>
          <label>
            <input type="checkbox" checked={!selected.care} onChange={(e) => onCommit(editFor(selected, caseId, { care: !e.target.checked }))} /> don&apos;t care
          </label>
          {selected.gt_id !== null && (
            <button type="button" onClick={() => onCommit(editFor(selected, caseId, { deleted: !selected.deleted }))}>
              {selected.deleted ? 'Restore' : 'Delete'}
            </button>
          )}
          {revert && (
            <button type="button" onClick={() => onCommit(revert)}>
              {selected.gt_id === null ? 'Remove added' : 'Revert to original'}
            </button>
          )}
        </>
      )}
    </div>
  );
}

export interface GtEditorOverlayProps {
  instances: readonly EditableGt[];
  caseId: string;
  transform: ViewTransform;
  width: number;
  height: number;
  imageWidth: number;
  imageHeight: number;
  onCommit: (edit: CorrectionEdit) => void;
}

/** The editor as a self-contained overlay: a toolbar and a transparent Stage over the viewer. */
export function GtEditorOverlay(p: GtEditorOverlayProps) {
  const [mode, setMode] = useState<GtEditorMode>('select');
  const [selectedKey, setSelectedKey] = useState<string | null>(null);
  // A shape just drawn is selected once its stored correction comes back as an instance, so its
  // text field is on screen at once (it is stored asynchronously: the keys before it are kept).
  const [awaitingAdded, setAwaitingAdded] = useState<ReadonlySet<string> | null>(null);
  const added = awaitingAdded ? p.instances.find((g) => g.gt_id === null && !awaitingAdded.has(g.key)) : undefined;
  if (added) {
    setAwaitingAdded(null);
    setSelectedKey(added.key);
  }
  const onCommit = (edit: CorrectionEdit) => {
    if (!edit.id && !edit.remove && edit.correction.gt_id === null) setAwaitingAdded(new Set(p.instances.map((g) => g.key)));
    p.onCommit(edit);
  };
  const selected = useMemo(() => p.instances.find((g) => g.key === selectedKey) ?? null, [p.instances, selectedKey]);
  return (
    <>
      <div data-testid="gt-editor" style={{ position: 'absolute', left: 0, top: 0, width: p.width, height: p.height, cursor: mode === 'select' ? 'default' : 'crosshair' }}>
        <Stage width={p.width} height={p.height}>
          <GtEditorLayer
            instances={p.instances}
            caseId={p.caseId}
            transform={p.transform}
            imageWidth={p.imageWidth}
            imageHeight={p.imageHeight}
            mode={mode}
            selectedKey={selectedKey}
            onSelect={setSelectedKey}
            onCommit={onCommit}
            onModeDone={() => setMode('select')}
          />
        </Stage>
      </div>
      {/* After the Stage, so it stays on top of it. */}
      <div style={{ position: 'absolute', left: 4, top: 4, background: 'Canvas', color: 'CanvasText', padding: 2, borderRadius: 4 }}>
        <GtEditorToolbar caseId={p.caseId} selected={selected} mode={mode} onMode={setMode} onCommit={p.onCommit} />
      </div>
    </>
  );
}
