/**
 * Shows finished full-detail drawings (useFullDetail) at once — in a microtask after the task
 * that finished them, so that the drawings released together (linked panes) commit in one
 * flush — if the view is still the one they were drawn for, and draws the panes' Konva layers
 * there too; otherwise they are dropped.
 *
 * Why at once: they used to wait for the next animation frame (the input of that frame handed to
 * the page first, so a drawing the motion had overtaken was dropped there), from a time when a
 * drawing could finish in a pause of a gesture and, shown just before the next step, cost that
 * frame 44–58 ms. Drawings now start only after a frame without input, and input stops them
 * within a chunk, so one that finishes is nearly always for a view at rest; waiting for the frame
 * only held the layers' drawing back until then. Measured (viewer bench, 6 runs of each ending
 * each way, interleaved, 2026-12-02): from the workers' last part to the screen 17–35 ms (median
 * 26 at a new zoom, 27.5 panned) waiting for the frame, 17–25 ms (median 20, 20.5) at once;
 * frames over 33 ms 28 and 25 in 12 runs. (That "at once" showed within the task; this microtask
 * version, 6 more runs of each ending: 20–34 ms, median 22.5 and 23.) Waiting for the next frame
 * only after a wheel notch (when more notches may follow) measured no better either: dropped
 * frames 22 against 22 in 40 runs, redraw at a new zoom median 70 ms against 64.5 (bench/README.md).
 */
import type Konva from 'konva';
import { flushSync } from 'react-dom';

export interface PendingShow {
  /** Whether the drawing is still for the view on screen (checked when it is shown). */
  wanted(): boolean;
  /** Puts it on show (a React state update; run inside one flushSync for all panes). */
  show(): void;
  /** Called instead of show when it is no longer wanted. */
  dropped(): void;
  /** The pane's stage, whose layers are drawn with it. */
  stage(): Konva.Stage | null;
}

const queue: PendingShow[] = [];
let queued = false;

/** Shows `s` at the end of this task, together with every other drawing queued by then (linked panes). */
export function showDrawing(s: PendingShow): void {
  queue.push(s);
  if (queued) return;
  queued = true;
  queueMicrotask(run);
}

function run() {
  queued = false;
  const all = queue.splice(0);
  const shown = all.filter((s) => s.wanted());
  for (const s of all) if (!shown.includes(s)) s.dropped();
  if (shown.length === 0) return;
  drawNow(
    shown.flatMap((s) => s.stage()?.getLayers() ?? []),
    () => flushSync(() => shown.forEach((s) => s.show())),
  );
}

/**
 * Runs `update` (which changes the layers' nodes) and draws the layers it changed, now. A changed
 * node asks for its layer's redraw with batchDraw, which draws in the next animation frame — work
 * that frame would then do before it can show anything. So during the update each layer's
 * batchDraw only notes the ask (an own property over Konva's method, removed after), and the
 * layers that asked are drawn here.
 */
export function drawNow(layers: readonly Konva.Layer[], update: () => void): void {
  const asked = new Set<Konva.Layer>();
  for (const l of layers)
    l.batchDraw = () => {
      asked.add(l);
      return l;
    };
  try {
    update();
  } finally {
    for (const l of layers) delete (l as Partial<Konva.Layer>).batchDraw;
  }
  for (const l of asked) l.draw();
}
