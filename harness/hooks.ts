/** `window.__viewer`: what the viewer harness exposes to e2e tests and the benchmark. */
import type { CaseViewerHandle, CompareMode } from '../src/app/canvas/CaseViewer';
import type { Fixture } from './fixtures';
import type { probeRasterAbort, probeSnapshots } from './rasterProbe';

export interface HarnessHash {
  name: string;
  compare: CompareMode;
  models: number;
  /**
   * `ok`: decoded with the app's decodeImage (its pre-scaled copies made in a worker); `late`:
   * the same, given to the viewer only when `releaseImage` is called (as an image file decoded
   * after its case's shapes were drawn); `canvas`: the canvas's own bitmap, no copies (the viewer
   * makes them itself, as for an image decoded without the worker).
   */
  image: 'ok' | 'missing' | 'late' | 'canvas';
}

export interface ViewerHooks {
  handle: CaseViewerHandle | null;
  fixture: Fixture;
  hash: HarnessHash;
  /** How often the viewer asked for the next (1) / previous (-1) case, in order. */
  caseMoves: number[];
  names: readonly string[];
  /** The image for the current fixture has been generated (or is deliberately missing). */
  ready: boolean;
  /** The viewer's raster pool: drawings finished, parts stopped, warm-up parts drawn, parts in progress, shapes sent (null without workers). */
  rasterStats: () => { drawn: number; aborted: number; warmed: number; warmUpParts: number; inProgress: number; contents: number } | null;
  /** With `image=late`: gives the viewer the image it has held back. */
  releaseImage: () => void;
  /** How many pre-scaled copies the worker made for the image on show (null: none from it). */
  workerLevels: () => Promise<number | null>;
  /** The copies' worker: requests sent, cancelled (no pane showed the image any more), answered with copies, answered after their cancel. */
  mipWork: () => { asked: number; cancelled: number; made: number; late: number };
  /** A raster worker of its own, told to abort a part, or drawing on while its snapshot is held (harness/rasterProbe.ts). */
  probeRasterAbort: () => ReturnType<typeof probeRasterAbort>;
  probeSnapshots: () => ReturnType<typeof probeSnapshots>;
}

declare global {
  interface Window {
    __viewer?: ViewerHooks;
  }
}
