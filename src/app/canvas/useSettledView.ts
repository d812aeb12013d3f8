/**
 * The drawing strategy for pan and zoom: while the view moves, the pane's canvases are not drawn
 * at all — the browser's compositor moves and scales the last drawing (a CSS transform on the
 * stage), which costs no canvas work on the main thread — and once the motion has paused for
 * SETTLE_FRAMES everything is drawn again at full detail for the new view, in one frame with the CSS
 * transform's removal, so the switch never shows.
 *
 * Measured (`npm run bench -- viewer`, software raster): re-blitting a cached bitmap of the
 * 5,000 polygons plus the image on every frame kept the page at about 27 displayed fps; moving
 * the finished canvases in the compositor costs a style change per frame.
 */
import { useEffect, useState } from 'react';
import { flushSync } from 'react-dom';
import { cssAt, isWheelNotch, type ViewTransform } from './transform';

/**
 * Frames without a pan / zoom step before the full-detail redraw. Counted in animation frames,
 * not with a timer: Chromium hands queued mouse and wheel events to the page at the start of a
 * frame, before its requestAnimationFrame callbacks, so a frame that saw no step means the hand
 * has stopped — whereas a timer can fire while moves wait in the queue behind a slow task, and
 * start a full redraw (hundreds of ms in software raster) in the middle of a gesture.
 */
export const SETTLE_FRAMES = 2;
// 2 is one whole frame without input: the frame that delivered the last step counts as the
// first. With 1, most frames of a gesture would start a full drawing; measured with the raster
// workers (which made that seem cheap): 170–199 drawings started in the bench's 5-s gesture,
// 40–43 displayed fps (47–59 with 2), and no earlier redraw.

/** Whether two views are the same. */
export const same = (a: ViewTransform, b: ViewTransform) => a.scale === b.scale && a.x === b.x && a.y === b.y;

// One frame counter for every pane, so linked panes (side by side) redraw in the same callback —
// React batches their updates into one commit and both switch in the same frame.
const waiting = new Set<() => void>();
let quiet = 0;
let frame = 0;
function tick() {
  frame = 0;
  if (waiting.size === 0) return;
  if (++quiet < SETTLE_FRAMES) {
    frame = requestAnimationFrame(tick);
    return;
  }
  settleNow();
}
function settleNow() {
  if (restMs > 0) {
    const since = performance.now() - lastInput;
    if (since < restMs) {
      setTimeout(settleNow, restMs - since);
      return;
    }
  }
  const all = [...waiting];
  waiting.clear();
  // Rendered now (inside this animation frame, or the task after a notch's frame), not in a
  // later task: the full-detail drawing is asked for ~10 ms sooner (measured in a trace: the
  // state update alone waited for a task after the frame). One flush for all panes, so linked
  // panes still commit together.
  flushSync(() => {
    for (const f of all) f();
  });
}

// A notch is a step of its own, not part of a stream of input every frame: the view it makes is
// drawn at full detail right after the frame that shows it (a task, which runs once that frame
// is rendered), without the frame without input a stream needs; the next notch, if any, stops
// that drawing as any input does. Real input through the X server (viewer bench, x11: a notched
// wheel flicked at 25 notches a second between 125 Hz drags), 8 runs of each ending interleaved
// with the code before: full-detail redraw on screen after the last notch 65–85 ms (medians 73 at
// a new zoom, 81.5 panned) against 33–119 ms (86.5 and 70); workers asked after median 11 ms
// against 26; dropped frames 74 in 15 runs against 65 in 16 (the drawings started after notches
// compete with the next notch's frame).
let stepped = false;
let inputs = 0;
let afterFrame: MessageChannel | null = null;
let early = false;
/** Settles after the current task (once this frame is rendered), unless input comes first. */
function settleAfterFrame() {
  if (early) return;
  early = true;
  if (!afterFrame) {
    afterFrame = new MessageChannel();
    afterFrame.port1.onmessage = (m: MessageEvent<number>) => {
      early = false;
      if (!stepped || waiting.size === 0) return;
      // Input came since: another notch, whose own call here found this one still pending;
      // it is looked at in a task of its own.
      if (inputs === m.data) settleNow();
      else settleAfterFrame();
    };
  }
  afterFrame.port2.postMessage(inputs);
}

// A wheel step, a drag move or a key press (the viewer's arrow and zoom keys, held down: repeats)
// restarts the count the moment it is dispatched (at the start of a frame), before the view
// change it causes has gone through React. Only input restarts it: a view change that reaches
// settleSoon later in the same frame (a wheel step is applied in an animation frame callback)
// must not make that frame count as moving again — it did, and every redraw waited one frame
// longer than SETTLE_FRAMES says (measured in a trace: asked ~17 ms after the quiet frame).
const typing = (e: Event) => {
  const t = e.target as HTMLElement | null;
  return !!t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName ?? ''));
};
const moving = (e: Event) => {
  // Keys typed into a field (a review note) move nothing: they must not hold a redraw back.
  if (e.type === 'wheel' || (e.type === 'keydown' && !typing(e)) || (e as PointerEvent).buttons) {
    quiet = 0;
    lastInput = performance.now();
    epoch++;
    inputs++;
    stepped = e.type === 'wheel' && isWheelNotch(e as WheelEvent);
    if (stepped) lastNotch = lastInput;
    for (const f of [...onInput]) f();
  }
};
let epoch = 0;
const onInput = new Set<() => void>();
let lastInput = 0;
let lastNotch = -Infinity;
let restMs = 0;

/**
 * Whether the last pan / zoom input was a wheel notch dispatched within the last 100 ms: a view
 * change now is that notch's (a wheel step is applied at the next animation frame), and glides
 * (glide.ts).
 */
export function byWheelNotch(): boolean {
  return stepped && performance.now() - lastNotch < 100;
}

/**
 * Test hook (the viewer harness's `#…&redraw=rest`, for the viewer bench): no full-detail drawing
 * until `ms` have passed without pan / zoom input — none during a gesture, so the bench can
 * measure the frames a motion drops with no drawing at all competing for the cores (what the
 * machine itself allows), against the same gesture with the redraws the viewer makes.
 */
export function redrawOnlyAtRest(ms: number): void {
  restMs = ms;
}

/**
 * Calls `f` at every pan / zoom input (a wheel step, a drag move, a key), as it is dispatched;
 * returns the unsubscribe. For work that must stop the moment the view moves again (the raster
 * workers' parts in progress), not one frame later.
 */
export function onMotionInput(f: () => void): () => void {
  onInput.add(f);
  return () => {
    onInput.delete(f);
  };
}

/**
 * Changes whenever the view is moved (a wheel step, a drag move, a new transform): a drawing
 * started for a settled view is abandoned once this differs from its start.
 */
export function motionEpoch(): number {
  return epoch;
}
let listening = false;
/** Listens for pan / zoom input from the first pane on, so that even the first step is known for what it is (a notch or not). */
function listen() {
  if (listening) return;
  listening = true;
  window.addEventListener('wheel', moving, { capture: true, passive: true });
  window.addEventListener('pointermove', moving, { capture: true, passive: true });
  window.addEventListener('keydown', moving, { capture: true, passive: true });
}
function settleSoon(fn: () => void): () => void {
  listen();
  waiting.add(fn);
  // A change without input (a zoom button, fit on resize) is drawn after the next frame at most.
  epoch++;
  if (stepped) settleAfterFrame();
  if (!frame) frame = requestAnimationFrame(tick);
  return () => {
    waiting.delete(fn);
  };
}

/**
 * The transform the canvases are drawn at: `live` itself (or `settleAt(live)`) once it has stood
 * still for SETTLE_FRAMES, or at once when `content` (what is drawn) changes — a new case or new
 * layers must not be shown as a stretched copy of the old drawing.
 */
export function useSettledView(live: ViewTransform, content: unknown, settleAt?: (t: ViewTransform) => ViewTransform): ViewTransform {
  const [drawn, setDrawn] = useState({ t: live, content });
  // Derived during render (React's "adjust state when a prop changes"): new content snaps.
  let current = drawn;
  if (drawn.content !== content) {
    current = { t: live, content };
    setDrawn(current);
  }
  const settled = same(current.t, live);
  useEffect(listen, []);
  useEffect(() => {
    if (settled) return;
    // `settleAt` may move the view a little as it comes to rest (it then sets the live view to
    // that too, so the two agree): see useFullDetail's whole-pixel pan.
    return settleSoon(() => setDrawn({ t: settleAt ? settleAt(live) : live, content }));
  }, [settled, live, content, settleAt]);
  return current.t;
}

/** The CSS transform that shows a drawing made at `drawn` as if it were made at `live` (cssAt), or undefined when they agree. */
export function motionTransform(drawn: ViewTransform, live: ViewTransform): string | undefined {
  return same(drawn, live) ? undefined : cssAt(drawn, live);
}
