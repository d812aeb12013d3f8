/**
 * Frames as Chromium shows them, for the viewer bench: a DevTools trace (CDP Tracing) recorded
 * while input arrives through CDP `Input.dispatch*Event` at a fixed rate, and the frames the
 * compositor presented read back from it.
 *
 * Why not requestAnimationFrame: rAF callbacks tick at the BeginFrame rate (every 16.7 ms)
 * whether or not the compositor has a new frame to show, so a page whose main thread needs 60 ms
 * for a frame can still "count" 60 rAF callbacks a second when they run back to back.
 *
 * What a displayed frame is here: a `Display::FrameDisplayed` event of the viz compositor (the
 * GPU process, here with the software output surface): a frame that reached the screen with new
 * damage. A vsync that showed nothing new is not a frame; frameFigures says for each long
 * interval whether a pan / zoom step was waiting at such a vsync, or a wheel notch's glide was
 * under way at it (a dropped frame either way), or no step had reached the page yet.
 */
import type { CDPSession } from 'playwright-core';
import { GLIDE_MS } from '../src/app/canvas/glide';

export interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  id?: string;
  id2?: { local?: string; global?: string };
  pid: number;
  tid: number;
  args?: Record<string, unknown>;
}

export const TRACE_CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline.frame',
  'disabled-by-default-devtools.timeline',
  'benchmark',
  'viz',
  'cc',
  'gpu',
  'blink.user_timing',
  ...(process.env.BENCH_V8PROF ? ['disabled-by-default-v8.cpu_profiler'] : []),
];

export async function startTrace(cdp: CDPSession): Promise<void> {
  await cdp.send('Tracing.start', {
    transferMode: 'ReportEvents',
    traceConfig: { recordMode: 'recordAsMuchAsPossible', includedCategories: TRACE_CATEGORIES, excludedCategories: ['*'] },
  });
}

export async function stopTrace(cdp: CDPSession): Promise<TraceEvent[]> {
  const events: TraceEvent[] = [];
  const onData = (e: { value: object[] }) => {
    events.push(...(e.value as TraceEvent[]));
  };
  cdp.on('Tracing.dataCollected', onData);
  const done = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
  await cdp.send('Tracing.end');
  await done;
  cdp.off('Tracing.dataCollected', onData);
  return events;
}

export const quantile = (xs: readonly number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))] : NaN;
};

/** One input event of a scripted gesture, `at` ms after the gesture starts. */
export interface ScriptedInput {
  at: number;
  params: Record<string, unknown>;
}

export const INPUT_PERIOD_MS = 8; // a USB mouse polled at 125 Hz

/**
 * How the gesture's wheel turns. `smooth`: a high-resolution wheel or trackpad, one step of
 * deltaY ∓8 in every 8-ms slot (80 a phase). `notched`: an ordinary wheel, whose every notch is
 * deltaY ∓120 in Chromium on Linux (X11 buttons 4 / 5; measured), flicked at 25 notches a second
 * (one every 5 slots), 5 notches a phase: about the zoom of 80 smooth steps (600 px of delta
 * against 640), with the pointer held still, as a hand does while it turns the wheel.
 */
export type WheelStyle = 'smooth' | 'notched';
export const NOTCH_DELTA = 120;
export const NOTCH_SLOTS = 5;
const NOTCHES_PER_PHASE = 5;

/**
 * The pan-and-zoom gesture of the viewer bench, one event every 8 ms (or, with a notched wheel,
 * one notch every 40 ms), around the pane centre: phases alternating a left-button drag of 80
 * moves (640 ms; the pointer walks a circle of 120 px radius, about 1.2 px per ms) and wheel
 * zoom (in, then back out, so the view stays around the fit where every polygon is visible). With
 * 8 phases it ends back at the zoom it started from, panned; `endZoom` adds that many smooth
 * wheel steps in at the end (with a notched wheel, as many notches as make about the same delta,
 * at least one, out).
 */
export function panZoomGesture(cx: number, cy: number, phases = 8, endZoom = 0, wheel: WheelStyle = 'smooth'): ScriptedInput[] {
  const out: ScriptedInput[] = [];
  const per = 80;
  let i = 0;
  let x = cx;
  let y = cy;
  const at = () => i * INPUT_PERIOD_MS;
  const step = (wx: number, wy: number, deltaY: number) =>
    out.push({ at: at(), params: { type: 'mouseWheel', x: wx, y: wy, deltaX: 0, deltaY, button: 'none', buttons: 0 } });
  for (let ph = 0; ph < phases; ph++) {
    // Wheel phases go in (deltaY < 0), then out.
    const dir = ph % 4 === 1 ? -1 : 1;
    if (ph % 2 === 0) {
      // Every event in its own 8-ms slot, as one report of a 125 Hz mouse: a press and the
      // first move (or a release and the first wheel step) sent at the same instant were two
      // reports in one slot.
      out.push({ at: at(), params: { type: 'mousePressed', x, y, button: 'left', buttons: 1, clickCount: 1 } });
      i++;
      const a0 = ph * 0.9;
      for (let k = 1; k <= per; k++, i++) {
        const a = a0 + (k / per) * 2 * Math.PI * (ph % 4 === 0 ? 1 : -1);
        // Whole CSS pixels, as a mouse reports them.
        x = Math.round(cx + 120 * Math.cos(a) - 120 * Math.cos(a0));
        y = Math.round(cy + 120 * Math.sin(a) - 120 * Math.sin(a0));
        out.push({ at: at(), params: { type: 'mouseMoved', x, y, button: 'left', buttons: 1 } });
      }
      out.push({ at: at(), params: { type: 'mouseReleased', x, y, button: 'left', buttons: 0, clickCount: 1 } });
      i++;
    } else if (wheel === 'notched') {
      // The next event (a press, or the final notches) 40 ms after the last notch, as the notches.
      for (let k = 0; k < NOTCHES_PER_PHASE; k++, i += NOTCH_SLOTS) step(x, y, NOTCH_DELTA * dir);
    } else {
      for (let k = 0; k < per; k++, i++) {
        const wx = Math.round(cx + 200 * Math.sin((i / per) * 3));
        const wy = Math.round(cy + 150 * Math.cos((i / per) * 2));
        step(wx, wy, 8 * dir);
      }
      x = Math.round(cx + 200 * Math.sin((i / per) * 3));
      y = Math.round(cy + 150 * Math.cos((i / per) * 2));
      out.push({ at: at(), params: { type: 'mouseMoved', x, y, button: 'none', buttons: 0 } });
      i++;
    }
  }
  // Then more wheel steps in: the view comes to rest at a zoom no drawing was made at, so the
  // whole view is drawn again (without them it ends at the zoom it started from, and the last
  // drawing, moved, is most of the new one).
  // A notched wheel goes out instead: every whole number of notches in from the start is a zoom
  // the flicks passed through (5 in and back), whose drawing may still be on show and is then
  // only moved; one notch out of the start is a zoom never drawn, with every polygon in view.
  if (wheel === 'notched') {
    const notches = endZoom > 0 ? Math.max(1, Math.round((endZoom * 8) / NOTCH_DELTA)) : 0;
    for (let k = 0; k < notches; k++, i += NOTCH_SLOTS) step(x, y, NOTCH_DELTA);
  } else for (let k = 0; k < endZoom; k++, i++) step(x, y, -8);
  return out;
}

/** Sends one scripted event to the browser (through CDP, or through the X server: x11Input.ts). */
export type SendInput = (e: ScriptedInput) => Promise<unknown> | void;

/** Sends scripted events through CDP `Input.dispatchMouseEvent`. */
export const cdpInput =
  (cdp: CDPSession): SendInput =>
  (e) =>
    cdp.send('Input.dispatchMouseEvent', e.params as never);

/**
 * Sends the events at their times (a deadline loop on Node's clock, not awaiting each reply: a
 * real mouse does not wait for the page either). Returns the send times actually achieved.
 */
export async function playInput(send: SendInput, events: readonly ScriptedInput[]): Promise<number[]> {
  const sent: number[] = [];
  const pending: Promise<unknown>[] = [];
  const t0 = performance.now();
  for (const e of events) {
    const wait = t0 + e.at - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    sent.push(performance.now() - t0);
    pending.push(Promise.resolve(send(e)));
  }
  await Promise.all(pending);
  return sent;
}

export interface FrameFigures {
  /** Motion: from the first input event to the last, trace clock, ms. */
  motionMs: number;
  inputEvents: number;
  displayed: number;
  fps: number;
  /**
   * The drags alone (each from its press to its release, when input comes in every 8-ms slot
   * whatever the wheel is like): displayed frames in them, their time in all, and the fps.
   */
  dragging: {
    displayed: number;
    ms: number;
    fps: number;
    /**
     * The same drags from each one's first displayed frame to its last: the frame rate the eye
     * gets while the view follows the hand (the intervals between the frames shown, averaged),
     * without the first frame's latency after each press, which `firstFrame` reports. With every
     * vsync showing a new frame this is the display's 60.
     */
    shownMs: number;
    shownFps: number;
  };
  /** Between consecutive displayed frames in the motion window, and from the last to the last input, ms. */
  intervals: number[];
  /**
   * The first displayed frame of the motion, ms after the first input (a press) and after the
   * first view-moving one (a drag move or a wheel step): the gesture's latency on screen.
   */
  firstFrame: { fromInputMs: number; fromMoveMs: number };
  /**
   * The gesture's first second (FIRST_SECOND_MS from the first input), what a user who zooms
   * right after opening a case sees: the longest wait for a new frame on screen in it, ms — the
   * first frame's latency after the first view-moving input, or an interval between displayed
   * frames that began in that second — and when it began, ms into the motion (issue #42 item 16:
   * a 250–270 ms gap in the first gesture).
   */
  firstSecond: { longestMs: number; atMs: number };
  median: number;
  p95: number;
  max: number;
  /** Frames the renderer's compositor submitted (DrawFrame) in the same window: a cross-check. */
  drawFrames: number;
  /** Frame slots Chromium reports as dropped (DroppedFrame) in the window. */
  dropped: number;
  /**
   * From the last input event to the first displayed frame after the last full-detail draw, ms
   * (NaN if none). The clock starts when the browser forwarded that event to the page (the end
   * of its EventLatency's GenerationToBrowserMain stage), where a real mouse's event is within a
   * millisecond of the hand: DevTools holds every injected wheel event until the page has made a
   * frame (`heldMs`; see `held`), which no real mouse's event waits for.
   */
  settleMs: number;
  /** The same, with the clock started when DevTools created the last input event (so including `heldMs`). */
  settleFromCreatedMs: number;
  /** How long DevTools held the last input event before forwarding it, ms (wheel events: until the page made a frame). */
  heldMs: number;
  /**
   * Where `settleMs` goes, ms (NaN where a part is missing from the trace), each from the last
   * input event's forwarding (as `settleMs`): `restMs`, to the last frame displayed before the full-detail one — the view standing
   * still on screen, still the moved drawing (the input's way through Chromium to the page and
   * one frame of it on screen; where the view comes to rest at a zoom on show, the frame of its
   * move to a whole pixel, which comes after the request); `askMs`, to the page's last request
   * to the raster workers; `rasterMs`, from that request to the end of
   * the last worker task that followed it, of which `rasterCpuMs` the workers' CPU in all (more
   * than `rasterMs` when both drew at once); `showMs`, from that end to the full-detail frame on
   * screen.
   */
  redraw: { restMs: number; askMs: number; rasterMs: number; rasterCpuMs: number; workerTasks: number; showMs: number };
  /** Full-detail draws during the motion (each one a frame that re-strokes every polygon). */
  fullDrawsInMotion: number;
  /**
   * Drawings asked of the raster workers during the motion (a pause mid-gesture long enough to
   * start one), and how many of all asked were dropped because the view moved on.
   */
  rasterRequestsInMotion: number;
  rasterDropped: number;
  /** Pauses in the input itself (trace clock): the longest, and how many reached 50 ms (3 frames, when the viewer redraws). */
  inputGapMax: number;
  inputGapsOver50: number;
  /**
   * Top-level tasks in the motion window per thread (renderer main, renderer compositor, viz):
   * wall ms and CPU ms (thread time). On a busy machine wall ≫ CPU: the thread was runnable
   * but not running, which no page can fix.
   */
  threads: Record<string, { wall: number; cpu: number }>;
  /**
   * Frame intervals over 33 ms, each with the kinds of input sent in it (EventLatency's
   * event_type, e.g. MOUSE_RELEASED_EVENT, MOUSE_WHEEL_EVENT): says where in the gesture they fall.
   */
  longFrames: { atMs: number; ms: number; inputs: string[]; dropped: boolean; held: boolean; glide: boolean; page: PageWork }[];
  /**
   * Long intervals in which a pan / zoom step (a drag move or a wheel step), not yet on screen at
   * the interval's start, had reached the page's renderer before a vsync that then showed
   * nothing new (vsyncs matched to displayed frames by frame sequence: vsyncOfShown), or such a
   * vsync came while a wheel notch's glide was under way (GLIDE_STAMP): frames the page dropped. The
   * others waited for input — no step had arrived by the vsyncs in between (Chromium hands
   * wheel and mouse moves to the page at its next animation frame, so a step arriving just
   * after one waits a whole frame: the first wheel step after a drag does). Arriving takes the
   * browser's and the renderer's IO threads a moment of CPU: on a machine whose cores are busy
   * (the raster workers) a step can arrive late, and that counts here as waiting too.
   */
  longFramesDropped: number;
  /**
   * Long intervals that waited for input (not dropped) while, at their first empty vsync, a
   * wheel step had been sent but DevTools was still holding it. (A dropped frame counts as the
   * page's even then: in a run of wheel steps one is nearly always being held.) Chromium's DevTools input
   * handler forwards an injected wheel event only once the page has made a frame
   * (content/browser/devtools/protocol/input_handler.cc, DispatchWebMouseEvent:
   * InsertVisualStateCallback, "We make sure the compositor is up to date before sending a wheel
   * event"); a real mouse's wheel event is forwarded at once. At the first wheel step after a
   * drag the page had no frame to make, so the step waited for one, and reached the page a frame
   * or two after a real mouse's would have.
   */
  longFramesHeld: number;
  /** Long intervals dropped with a glide under way at a vsync in between (counted in longFramesDropped too). */
  longFramesGlide: number;
  /** Glides started during the motion (wheel notches shown as glides). */
  glides: number;
}

type TaskEvent = TraceEvent & { tdur?: number };

/**
 * What the page's threads did over a long frame: the renderer's main thread (its tasks' wall
 * time within the interval, and the longest task that overlaps it, with its CPU time) and the
 * raster workers (their tasks' wall time within it, both together). Says whether a dropped frame
 * was the page's work or a wait with the page idle (the machine's other programs, or Chromium's
 * own threads).
 */
export interface PageWork {
  mainMs: number;
  longestTaskMs: number;
  longestTaskCpuMs: number;
  workersMs: number;
}

/** The start of a gesture whose longest frame wait `firstSecond` gives, ms. */
export const FIRST_SECOND_MS = 1000;

/** Name of the console.timeStamp the static layer writes after a full-detail draw. */
export const FULL_DRAW_STAMP = 'benchlens:full-draw';
/** The console.timeStamps useFullDetail writes for a request to the raster workers and a dropped result. */
export const RASTER_REQUEST_STAMP = 'benchlens:raster-request';
export const RASTER_DROPPED_STAMP = 'benchlens:raster-dropped';
/** The console.timeStamp useGlide writes when a wheel notch's glide is made (it runs GLIDE_MS from the next frame on, or until the next). */
export const GLIDE_STAMP = 'benchlens:glide';

const isInput = (e: TraceEvent) => e.name === 'EventLatency' && e.ph === 'b';
const kindOf = (e: TraceEvent) => String((e.args as { event_latency?: { event_type?: string } } | undefined)?.event_latency?.event_type ?? '?');
const idOf = (e: TraceEvent) => `${e.pid}:${e.id2?.local ?? e.id ?? ''}`;
const stampOf = (e: TraceEvent) => {
  const d = e.args?.data as { message?: string; name?: string } | undefined;
  return d?.message ?? d?.name;
};
/** The page's console.timeStamp events named `stamp`. */
const stamped = (events: readonly TraceEvent[], stamp: string) => events.filter((e) => e.name === 'TimeStamp' && stampOf(e) === stamp);

/**
 * Reads the figures from a trace. A displayed frame is a `Display::FrameDisplayed` event of the
 * viz compositor (the GPU process, here with the software output surface): a frame that reached
 * the screen with new damage. Frames in the motion window (first to last input event) count.
 *
 * `gestureMs`, when given: how long the scripted input took to send, first event to last. Input
 * events the trace has later than that after the first (with 25 ms to spare) are not the
 * gesture's but Chromium's own: after a notched wheel's last notch the browser sends the page a
 * wheel event of its own 500 ms later (delta 0, phase ended: MouseWheelPhaseHandler), which
 * would otherwise stretch the motion by half a second.
 */
export function frameFigures(allEvents: readonly TraceEvent[], gestureMs = Infinity, glideMs = GLIDE_MS): FrameFigures {
  const firstInput = Math.min(...allEvents.filter(isInput).map((e) => e.ts));
  const events = allEvents.filter((e) => !isInput(e) || e.ts <= firstInput + (gestureMs + 25) * 1000);
  const inputs = events.filter(isInput).map((e) => e.ts);
  const sentKinds = events
    .filter(isInput)
    .map((e) => ({ ts: e.ts, kind: kindOf(e) }));
  const t0 = Math.min(...inputs);
  const t1 = Math.max(...inputs);
  const shown = events
    .filter((e) => e.name === 'Display::FrameDisplayed')
    .map((e) => e.ts)
    .sort((a, b) => a - b);
  const inWin = shown.filter((t) => t >= t0 && t <= t1);
  // Intervals between displayed frames, and from the last one to the last input. The time from
  // the first input to the first frame is not one of them: the screen was still before it, so it
  // is the gesture's latency (firstFrame), not a frame that came late.
  const intervals = inWin.slice(1).map((t, k) => (t - inWin[k]) / 1000);
  if (inWin.length) intervals.push((t1 - inWin[inWin.length - 1]) / 1000);
  const firstMove = events.filter((e) => isInput(e) && /DRAGGED|WHEEL/.test(kindOf(e))).reduce((m, e) => Math.min(m, e.ts), Infinity);
  const firstFrame = inWin.length ? { fromInputMs: (inWin[0] - t0) / 1000, fromMoveMs: (inWin[0] - firstMove) / 1000 } : { fromInputMs: NaN, fromMoveMs: NaN };
  // Waits for a new frame that began in the first second: from the first move to the first
  // frame, then from each displayed frame to the next (or to the last input).
  const firstSecond = { longestMs: firstFrame.fromMoveMs, atMs: (firstMove - t0) / 1000 };
  inWin.forEach((t, k) => {
    if (t > t0 + FIRST_SECOND_MS * 1000) return;
    if (intervals[k] > firstSecond.longestMs) Object.assign(firstSecond, { longestMs: intervals[k], atMs: (t - t0) / 1000 });
  });
  const presses = sentKinds.filter((x) => /PRESSED/.test(x.kind)).map((x) => x.ts);
  const releases = sentKinds.filter((x) => /RELEASED/.test(x.kind)).map((x) => x.ts);
  const drags = presses.flatMap((p) => {
    const r = releases.filter((t) => t > p).sort((a, b) => a - b)[0];
    return r === undefined ? [] : [[p, r] as const];
  });
  const dragMs = drags.reduce((a, [p, r]) => a + (r - p) / 1000, 0);
  const framesOfDrag = drags.map(([p, r]) => inWin.filter((t) => t > p && t <= r));
  const dragFrames = framesOfDrag.reduce((n, f) => n + f.length, 0);
  let shownMs = 0;
  let shownIntervals = 0;
  for (const f of framesOfDrag) {
    if (f.length < 2) continue;
    shownMs += (f[f.length - 1] - f[0]) / 1000;
    shownIntervals += f.length - 1;
  }
  const drawFrames = events.filter((e) => e.name === 'DrawFrame' && e.ts >= t0 && e.ts <= t1).length;
  const dropped = events.filter((e) => e.name === 'DroppedFrame' && e.ts >= t0 && e.ts <= t1).length;
  const stamps = stamped(events, FULL_DRAW_STAMP).map((e) => e.ts + (e.dur ?? 0));
  const lastFull = Math.max(...stamps.filter((t) => t > t1), -Infinity);
  const onScreen = shown.find((t) => t >= lastFull);
  const restFrame = onScreen === undefined ? undefined : shown.filter((t) => t < onScreen).pop();
  const motionMs = (t1 - t0) / 1000;
  const sorted = [...inputs].sort((a, b) => a - b);
  const gaps = sorted.slice(1).map((t, k) => (t - sorted[k]) / 1000);
  const names = new Map<string, string>();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, (e.args as { name: string }).name);
  const threads: Record<string, { wall: number; cpu: number }> = {};
  for (const e of events as TaskEvent[]) {
    if (e.name !== 'RunTask' || e.ts < t0 || e.ts > t1) continue;
    const n = names.get(`${e.pid}:${e.tid}`) ?? '?';
    if (!['CrRendererMain', 'Compositor', 'VizCompositorThread'].includes(n)) continue;
    const th = (threads[n] ??= { wall: 0, cpu: 0 });
    th.wall += (e.dur ?? 0) / 1000;
    th.cpu += (e.tdur ?? 0) / 1000;
  }
  // When each view-moving input reached the renderer (the end of its EventLatency's
  // BrowserMainToRendererCompositor stage), and the renderer's vsyncs (its compositor's BeginFrames).
  // Chromium reuses the async ids, so each stage event belongs to the latest EventLatency of its id.
  // Also when the browser forwarded each input to the page (the end of its GenerationToBrowserMain stage).
  // And when each input was on screen: the end of its EventLatency, the presentation of the frame that showed it.
  const latest = new Map<string, TraceEvent>();
  const arrivals: { at: number; input: TraceEvent | undefined }[] = [];
  const forwarded = new Map<TraceEvent, number>();
  const presented = new Map<TraceEvent, number>();
  for (const e of [...events].sort((a, b) => a.ts - b.ts)) {
    if (isInput(e)) latest.set(idOf(e), e);
    else if (e.ph !== 'e') continue;
    else if (e.name === 'BrowserMainToRendererCompositor' && /WHEEL|DRAGGED/.test(kindOf(latest.get(idOf(e)) ?? e))) arrivals.push({ at: e.ts, input: latest.get(idOf(e)) });
    else if (e.name === 'EventLatency') {
      const i = latest.get(idOf(e));
      if (i && !presented.has(i)) presented.set(i, e.ts);
    } else if (e.name === 'GenerationToBrowserMain') {
      const i = latest.get(idOf(e));
      if (i && !forwarded.has(i)) forwarded.set(i, e.ts);
    }
  }
  // When each step was on screen: its EventLatency's end where that is a displayed frame. One
  // that ends off any (1–3 ms after the event: Chromium ends those of events merged into a
  // later one) says nothing of when the step was shown.
  const steps = arrivals.map(({ at, input }) => {
    const p = input && presented.get(input);
    return { at, shownAt: p !== undefined && shown.some((t) => Math.abs(t - p) < 1000) ? p : undefined };
  });
  const forwardOf = (e: TraceEvent) => forwarded.get(e) ?? e.ts;
  // When the browser had the last input, as it has a real mouse's within a millisecond.
  const t1Forwarded = Math.max(...events.filter(isInput).map(forwardOf));
  // Inputs DevTools held (by more than a millisecond): sent, but not yet forwarded to the page.
  const holds = events
    .filter(isInput)
    .map((e) => ({ from: e.ts, to: forwardOf(e) }))
    .filter((h) => h.to - h.from > 1000);
  const renderer = stamped(events, FULL_DRAW_STAMP)[0]?.pid;
  const vsyncs = events
    .filter((e) => e.name === 'BeginFrame' && e.pid === renderer && names.get(`${e.pid}:${e.tid}`) === 'Compositor')
    .map((e) => e.ts)
    .sort((a, b) => a - b);
  const vsyncBefore = (t: number) => vsyncs.filter((v) => v <= t).pop() ?? -Infinity;
  // The vsync that made the frame on screen at `t`: that of the renderer's last compositor frame
  // (DrawFrame) before it, by their frame sequence number. The frame of a vsync reaches the screen
  // 10–17 ms after it here (software compositing), so at times after the next vsync: taking
  // the vsync just before the display put the gap one vsync late, and a step that came just
  // after a vsync, and was shown in the frame right after that, counted as waiting.
  const seqOf = (e: TraceEvent) => (e.args as { frameSeqId?: number } | undefined)?.frameSeqId;
  const compositor = (e: TraceEvent) => e.pid === renderer && names.get(`${e.pid}:${e.tid}`) === 'Compositor';
  const beginAt = new Map<number, number>();
  for (const e of events) if (e.name === 'BeginFrame' && compositor(e) && seqOf(e) !== undefined) beginAt.set(seqOf(e)!, e.ts);
  const draws = events.filter((e) => e.name === 'DrawFrame' && compositor(e) && seqOf(e) !== undefined).sort((a, b) => a.ts - b.ts);
  const vsyncOfShown = (t: number) => {
    const d = draws.filter((x) => x.ts <= t).pop();
    return (d && beginAt.get(seqOf(d)!)) ?? vsyncBefore(t);
  };
  const tasksOf = (thread: string) => (events as TaskEvent[]).filter((e) => e.name === 'RunTask' && e.ph === 'X' && e.pid === renderer && names.get(`${e.pid}:${e.tid}`) === thread);
  const mainTasks = tasksOf('CrRendererMain');
  const rasterTasks = tasksOf('DedicatedWorker thread');
  const within = (tasks: TaskEvent[], a: number, b: number) => tasks.reduce((sum, e) => sum + Math.max(0, Math.min(b, e.ts + (e.dur ?? 0)) - Math.max(a, e.ts)), 0) / 1000;
  const pageWork = (a: number, b: number): PageWork => {
    const longest = mainTasks.filter((e) => e.ts < b && e.ts + (e.dur ?? 0) > a).reduce<TaskEvent | null>((m, e) => (!m || (e.dur ?? 0) > (m.dur ?? 0) ? e : m), null);
    return { mainMs: within(mainTasks, a, b), longestTaskMs: (longest?.dur ?? 0) / 1000, longestTaskCpuMs: (longest?.tdur ?? 0) / 1000, workersMs: within(rasterTasks, a, b) };
  };
  // Each glide, from its stamp to glideMs and one frame later (its animation starts at the frame
  // after the stamp) or the next glide's stamp, whichever is first.
  const glideStarts = stamped(events, GLIDE_STAMP).map((e) => e.ts).sort((a, b) => a - b);
  const glides = glideStarts.map((a, k) => [a, Math.min(a + (glideMs + 1000 / 60) * 1000, glideStarts[k + 1] ?? Infinity)] as const);
  const longFrames = intervals.flatMap((ms, k) => {
    if (ms <= 33.4) return [];
    const start = inWin[k];
    const end = start + ms * 1000;
    const kinds = [...new Set(sentKinds.filter((x) => x.ts >= start && x.ts <= end).map((x) => x.kind))];
    // The vsyncs between the one that made the frame at `start` and the one that made the frame
    // at `end` showed nothing; a step that had arrived before one of them, and was not on
    // screen by `start`, was waiting. (The last interval ends at the last input, not a frame.)
    const from = vsyncOfShown(start);
    const to = k + 1 < inWin.length ? vsyncOfShown(end) : vsyncBefore(end);
    const missed = vsyncs.filter((v) => v > from && v < to);
    // A step whose showing is unknown is taken as not shown by the frame at `start` if it
    // arrived after that frame's vsync.
    const notShownYet = steps.filter((a) => (a.shownAt !== undefined ? a.shownAt > start + 1000 : a.at > from));
    // A vsync within a glide had a new view of it to show, input or not.
    const glide = missed.some((v) => glides.some(([a, b]) => v > a && v < b));
    const dropped = glide || missed.some((v) => notShownYet.some((a) => a.at < v));
    const held = !dropped && missed.length > 0 && holds.some((h) => h.from < missed[0] && h.to > missed[0]);
    return [{ atMs: (start - t0) / 1000, ms, inputs: kinds, dropped, held, glide, page: pageWork(start, end) }];
  });
  // The last drawing asked of the raster workers before the full-detail draw, and their tasks
  // after it (the raster workers are dedicated workers: Chromium's own pool threads are
  // 'ThreadPool…Worker' and must not count).
  const asked = stamped(events, RASTER_REQUEST_STAMP).map((e) => e.ts).filter((t) => t > t1 && t < lastFull);
  const askedAt = asked.length ? Math.max(...asked) : NaN;
  const workerTasks = rasterTasks.filter((e) => e.ts >= askedAt && e.ts < lastFull);
  const rasterEnd = Math.max(...workerTasks.map((e) => e.ts + (e.dur ?? 0)), -Infinity);
  const ms = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined || !Number.isFinite(a) || !Number.isFinite(b) ? NaN : (b - a) / 1000);
  const redraw = {
    restMs: ms(t1Forwarded, restFrame),
    askMs: ms(t1Forwarded, askedAt),
    rasterMs: workerTasks.length ? ms(askedAt, rasterEnd) : NaN,
    rasterCpuMs: workerTasks.reduce((a, e) => a + (e.tdur ?? 0), 0) / 1000,
    workerTasks: workerTasks.length,
    showMs: workerTasks.length ? ms(rasterEnd, onScreen) : NaN,
  };
  return {
    redraw,
    firstFrame,
    firstSecond,
    threads,
    inputGapMax: Math.max(...gaps),
    inputGapsOver50: gaps.filter((g) => g >= 50).length,
    motionMs,
    inputEvents: inputs.length,
    displayed: inWin.length,
    fps: inWin.length / (motionMs / 1000),
    dragging: { displayed: dragFrames, ms: dragMs, fps: dragMs > 0 ? dragFrames / (dragMs / 1000) : NaN, shownMs, shownFps: shownMs > 0 ? shownIntervals / (shownMs / 1000) : NaN },
    intervals,
    median: quantile(intervals, 0.5),
    p95: quantile(intervals, 0.95),
    max: Math.max(...intervals),
    drawFrames,
    dropped,
    settleMs: Number.isFinite(lastFull) && onScreen !== undefined ? (onScreen - t1Forwarded) / 1000 : NaN,
    settleFromCreatedMs: Number.isFinite(lastFull) && onScreen !== undefined ? (onScreen - t1) / 1000 : NaN,
    heldMs: (t1Forwarded - t1) / 1000,
    fullDrawsInMotion: stamps.filter((t) => t >= t0 && t <= t1).length,
    rasterRequestsInMotion: stamped(events, RASTER_REQUEST_STAMP).filter((e) => e.ts >= t0 && e.ts <= t1).length,
    rasterDropped: stamped(events, RASTER_DROPPED_STAMP).length,
    longFrames,
    longFramesDropped: longFrames.filter((l) => l.dropped).length,
    longFramesHeld: longFrames.filter((l) => l.held).length,
    longFramesGlide: longFrames.filter((l) => l.glide).length,
    glides: glideStarts.filter((t) => t >= t0 && t <= t1).length,
  };
}
