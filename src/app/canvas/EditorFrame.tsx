/**
 * The place over a pane where a page-supplied GT editor lives (CaseViewer's `gtEditor` prop):
 * same size and transform as the pane, and wheel zoom forwarded, because the editor's own Stage
 * takes the pointer and the pane underneath would no longer see the wheel.
 */
import { useRef, type ReactNode } from 'react';
import type { TransformUpdate } from './Pane';
import type { ViewTransform } from './transform';
import { useWheelZoom } from './useWheelZoom';

/** What the editor needs to draw in image coordinates over the pane. */
export interface GtEditorFrame {
  transform: ViewTransform;
  /** The pane's size in CSS pixels. */
  width: number;
  height: number;
  /** The image's size in pixels (where new shapes may be drawn). */
  imageWidth: number;
  imageHeight: number;
}

export function EditorFrame(p: GtEditorFrame & { updateTransform: TransformUpdate; render: (f: GtEditorFrame) => ReactNode }) {
  const { transform, width, height, imageWidth, imageHeight, updateTransform } = p;
  const box = useRef<HTMLDivElement>(null);
  useWheelZoom(box, updateTransform);
  return (
    <div
      ref={box}
      data-testid="gt-edit-frame"
      // The transform, for tests that need to turn image points into screen points.
      data-scale={transform.scale}
      data-tx={transform.x}
      data-ty={transform.y}
      style={{ position: 'absolute', left: 0, top: 0, width, height, zIndex: 1 }}
    >
      {p.render({ transform, width, height, imageWidth, imageHeight })}
    </div>
  );
}
