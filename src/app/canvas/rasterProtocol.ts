/** Messages between the page (rasterPool.ts) and a raster worker (raster.worker.ts). */
import type { DeviceRect, PackedScene } from './packedScene';
import type { ViewTransform } from './transform';

/** A view to draw: the transform, the viewport in CSS pixels (for culling), the canvas in device pixels. */
export interface RasterView {
  transform: ViewTransform;
  width: number;
  height: number;
  pixelRatio: number;
  /** Canvas size in device pixels. */
  w: number;
  h: number;
  /** Band edges in device rows (packedScene.ts balancedCuts); equally high bands without. */
  cuts?: number[];
}

export type RasterRequest =
  /** A pane's shapes for content number `content` (replaces the pane's earlier ones). */
  | { type: 'content'; pane: number; content: number; scene: PackedScene }
  /** The pane is gone. */
  | { type: 'drop'; pane: number }
  /**
   * From now on, send parts by transfer (transferToImageBitmap), as where a snapshot of a canvas
   * fails (raster.worker.ts partBitmap): a test hook, so that path is tested in browsers that
   * never take it.
   */
  | { type: 'transfer' }
  /** The page no longer wants the pane's drawings up to `generation`: a part of one in progress stops (replied as `aborted`). */
  | { type: 'abort'; pane: number; generation: number }
  /**
   * Draw band `part` of `parts` of the pane's view on a w×h device-pixel canvas (viewport width ×
   * height CSS pixels, for culling) — or, with `rect`, that rectangle of device pixels instead.
   */
  | ({ type: 'draw'; pane: number; content: number; generation: number; part: number; parts: number; rect?: DeviceRect } & RasterView);

export type RasterReply =
  /** Sent once at start: whether this worker can draw (OffscreenCanvas, transferToImageBitmap). */
  | { type: 'ready'; ok: boolean; why: string }
  /**
   * A part: its pixels, or none — because it was aborted, or with the error; `shapes` of `of`:
   * how many of the part's shapes it drew (all of them, or as far as an abort let it); `via`: how
   * the pixels came (raster.worker.ts partBitmap: a snapshot of the canvas, or its buffer
   * transferred). The bitmap may be larger than the part, which is in its top-left corner.
   */
  | { type: 'drawn'; pane: number; generation: number; bitmap: ImageBitmap | null; ms?: number; error?: string; aborted?: true; shapes?: number; of?: number; via?: PartVia };

/** How a part's pixels came from a worker: a snapshot of its canvas, or the canvas's buffer transferred. */
export type PartVia = 'snapshot' | 'transfer';
/** How a drawing's parts came: PartVia, or 'mixed' when the workers differed. */
export type PartsVia = PartVia | 'mixed';
