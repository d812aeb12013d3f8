/**
 * Shows finished full-detail drawings (useFullDetail) inside the next animation frame, after the
 * input of that frame has been handed to the page, and draws the panes' Konva layers there too.
 *
 * Why: a drawing finished in a pause of a gesture used to be put on show at once (React state),
 * and Konva drew it in the next frame — by then the next wheel step had often arrived. Shown in
 * the middle of the motion, it cost that frame a commit of every layer and a composite of the
 * whole pane (traced, `npm run bench -- viewer`: frames of 44–58 ms in half the runs). Checked at
 * the start of the frame, a drawing the motion has overtaken is dropped instead, and the one that
 * is shown still reaches the screen in the frame Konva would have drawn it in.
 */
import type Konva from 'konva';
import { flushSync } from 'react-dom';

export interface FrameShow {
  /** Whether the drawing is still for the view on screen (checked in the frame). */
  wanted(): boolean;
  /** Puts it on show (a React state update; run inside one flushSync for all panes). */
  show(): void;
  /** Called instead of show when it is no longer wanted. */
  dropped(): void;
  /** The pane's stage, whose layers are drawn in the frame. */
  stage(): Konva.Stage | null;
}

const queue: FrameShow[] = [];
let frame = 0;

/** Shows `s` in the next animation frame, together with every other drawing queued by then (linked panes). */
export function showInFrame(s: FrameShow): void {
  queue.push(s);
  if (!frame) frame = requestAnimationFrame(run);
}

function run() {
  frame = 0;
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
 * node asks for its layer's redraw with batchDraw, which draws in the next animation frame: from
 * inside this one, a frame late. So during the update each layer's batchDraw only notes the ask
 * (an own property over Konva's method, removed after), and the layers that asked are drawn here.
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
