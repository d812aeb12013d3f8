import { describe, expect, it } from 'vitest';
import { frameFigures, FULL_DRAW_STAMP, GLIDE_STAMP, panZoomGesture, type TraceEvent } from './frameTrace';

const MAIN = 1;
const COMPOSITOR = 2;
const VIZ = 3;
const ms = (t: number) => Math.round(t * 1000);
const input = (t: number, kind: string, id: number): TraceEvent => ({ name: 'EventLatency', cat: 'input', ph: 'b', ts: ms(t), pid: 10, tid: MAIN, id2: { local: String(id) }, args: { event_latency: { event_type: kind } } });
const shown = (t: number): TraceEvent => ({ name: 'Display::FrameDisplayed', cat: 'viz', ph: 'X', ts: ms(t), pid: 20, tid: VIZ });
const vsync = (t: number): TraceEvent => ({ name: 'BeginFrame', cat: 'cc', ph: 'I', ts: ms(t), pid: 10, tid: COMPOSITOR });

/** A press at 0, drag moves every 8 ms from 8 to 160, frames on screen as given, a full-detail draw at 200. */
function trace(frames: number[]): TraceEvent[] {
  const ev: TraceEvent[] = [
    { name: 'thread_name', cat: '__metadata', ph: 'M', ts: 0, pid: 10, tid: COMPOSITOR, args: { name: 'Compositor' } },
    { name: 'thread_name', cat: '__metadata', ph: 'M', ts: 0, pid: 10, tid: MAIN, args: { name: 'CrRendererMain' } },
    input(0, 'MOUSE_PRESSED_EVENT', 0),
  ];
  for (let k = 1; k <= 20; k++) ev.push(input(8 * k, 'MOUSE_DRAGGED_EVENT', k));
  for (let t = 4; t < 240; t += 16.7) ev.push(vsync(t));
  ev.push(...frames.map(shown));
  ev.push({ name: 'TimeStamp', cat: 'devtools.timeline', ph: 'I', ts: ms(200), pid: 10, tid: MAIN, args: { data: { message: FULL_DRAW_STAMP } } });
  ev.push(shown(215));
  return ev;
}

describe('frame figures from a DevTools trace', () => {
  it('measures intervals between displayed frames; the wait for the first one is the latency, not a long frame', () => {
    const f = frameFigures(trace([38, 54.7, 71.4, 88.1, 104.8, 121.5, 138.2, 154.9]));
    expect(f.displayed).toBe(8);
    expect(f.firstFrame.fromInputMs).toBeCloseTo(38, 6);
    expect(f.firstFrame.fromMoveMs).toBeCloseTo(30, 6);
    // Seven intervals of 16.7 ms and the 5.1 ms from the last frame to the last input (160 ms).
    expect(f.intervals).toHaveLength(8);
    expect(f.intervals.slice(0, 7).every((x) => Math.abs(x - 16.7) < 1e-6)).toBe(true);
    expect(f.intervals[7]).toBeCloseTo(5.1, 6);
    expect(f.longFrames).toEqual([]);
  });

  it('lists a gap between two displayed frames as a long frame, with the input sent in it and whether a step was waiting', () => {
    const f = frameFigures(trace([21.3, 38, 88.1, 104.8, 121.5, 138.2, 154.9]));
    expect(f.longFrames).toHaveLength(1);
    const [l] = f.longFrames;
    expect(l.ms).toBeCloseTo(50.1, 6);
    expect(l.atMs).toBeCloseTo(38, 6);
    expect(l.inputs).toEqual(['MOUSE_DRAGGED_EVENT']);
    // No step's arrival at the renderer is in this trace: nothing was waiting.
    expect(l.dropped).toBe(false);
    // The same gap with a drag move that reached the renderer (its BrowserMainToRendererCompositor
    // stage ended) at 49 ms, before the vsync at 54.1 that showed nothing new: dropped.
    const arrived: TraceEvent = { name: 'BrowserMainToRendererCompositor', cat: 'input', ph: 'e', ts: ms(49), pid: 10, tid: MAIN, id2: { local: '6' } };
    expect(frameFigures([...trace([21.3, 38, 88.1, 104.8, 121.5, 138.2, 154.9]), arrived]).longFrames.map((x) => x.dropped)).toEqual([true]);
    // The same gap with no step waiting, but a wheel notch's glide (60 ms) started at 30 ms: the
    // vsyncs at 54.1 and 70.8 ms, which showed nothing, had a view of it to show (dropped).
    const glideAt = (t: number): TraceEvent => ({ name: 'TimeStamp', cat: 'devtools.timeline', ph: 'I', ts: ms(t), pid: 10, tid: MAIN, args: { data: { message: GLIDE_STAMP } } });
    const gap = [...trace([21.3, 38, 88.1, 104.8, 121.5, 138.2, 154.9]), glideAt(30)];
    const withGlide = frameFigures(gap);
    expect(withGlide.longFrames.map((x) => [x.dropped, x.glide])).toEqual([[true, true]]);
    expect(withGlide.longFramesGlide).toBe(1);
    // A glide over (5 ms long here, plus the frame before its animation starts: to 51.7) before
    // the empty vsyncs at 54.1 and 70.8: waited for input.
    expect(frameFigures(gap, Infinity, 5).longFrames.map((x) => x.dropped)).toEqual([false]);
    // 10 ms long, to 56.7: the vsync at 54.1 was within it.
    expect(frameFigures(gap, Infinity, 10).longFrames.map((x) => x.dropped)).toEqual([true]);
    // A gap at the end of the motion counts too (the last frame to the last input).
    expect(frameFigures(trace([21.3, 38, 54.7, 71.4, 88.1, 104.8])).longFrames.map((x) => Math.round(x.ms * 10) / 10)).toEqual([55.2]);
  });
});

describe("the gesture's first second", () => {
  /** A press at 0, drag moves every 8 ms to 1,600 ms, a frame every 16 ms from 20 ms except in the gaps given ([from, to) ms). */
  function long(gaps: [number, number][]): TraceEvent[] {
    const ev: TraceEvent[] = [input(0, 'MOUSE_PRESSED_EVENT', 0)];
    for (let k = 1; k <= 200; k++) ev.push(input(8 * k, 'MOUSE_DRAGGED_EVENT', k));
    for (let t = 20; t < 1600; t += 16) if (!gaps.some(([a, b]) => t > a && t < b)) ev.push(shown(t));
    return ev;
  }

  it('gives the longest wait for a new frame that began in the first second, and when', () => {
    // A quarter-second freeze 500 ms in (frames at 500 and 756), another after the first second.
    const f = frameFigures(long([[500, 756], [1204, 1396]]));
    expect(f.firstSecond.longestMs).toBeCloseTo(256, 6);
    expect(f.firstSecond.atMs).toBeCloseTo(500, 6);
    expect(f.max).toBeCloseTo(256, 6);
    // Only the later gap: the first second's longest wait is the first frame's latency after the first move (20 − 8 ms).
    const later = frameFigures(long([[1204, 1396]]));
    expect(later.max).toBeCloseTo(192, 6);
    expect(later.firstSecond.longestMs).toBeCloseTo(16, 6);
    // A gap that begins before the second is over and ends after it counts.
    expect(frameFigures(long([[996, 1204]])).firstSecond).toEqual({ longestMs: 208, atMs: 996 });
    // A late first frame is the first second's longest wait.
    expect(frameFigures(long([[0, 308]])).firstSecond).toEqual({ longestMs: 300, atMs: 8 });
  });
});

describe('what the page did over a long frame', () => {
  it("gives the main thread's tasks within the interval, the longest one overlapping it, and the raster workers' tasks", () => {
    const WORKER = 4;
    const task = (tid: number, from: number, dur: number, cpu: number) => ({ name: 'RunTask', cat: 'toplevel', ph: 'X', ts: ms(from), dur: ms(dur), tdur: ms(cpu), pid: 10, tid }) as TraceEvent;
    const ev = [
      ...trace([21.3, 38, 88.1, 104.8, 121.5, 138.2, 154.9]),
      { name: 'thread_name', cat: '__metadata', ph: 'M', ts: 0, pid: 10, tid: WORKER, args: { name: 'DedicatedWorker thread' } } as TraceEvent,
      // Main thread: a task that starts before the gap (2 of its ms in it), a long one in it
      // (20 ms of wall time, 8 of CPU: waiting for a core), and one after it.
      task(MAIN, 30, 10, 9),
      task(MAIN, 50, 20, 8),
      task(MAIN, 95, 5, 5),
      // A raster worker at work over the whole gap and beyond.
      task(WORKER, 20, 100, 95),
      // Another process's main thread is not the page's.
      { ...task(MAIN, 40, 40, 40), pid: 11 },
    ];
    const [l] = frameFigures(ev).longFrames;
    expect(l.atMs).toBeCloseTo(38, 6);
    expect(l.page.mainMs).toBeCloseTo(22, 6);
    expect(l.page.longestTaskMs).toBeCloseTo(20, 6);
    expect(l.page.longestTaskCpuMs).toBeCloseTo(8, 6);
    expect(l.page.workersMs).toBeCloseTo(50.1, 6);
  });
});

describe('which vsync made a frame', () => {
  // Vsyncs every 16.7 ms from 4 (frame sequence 1, 2, …); a frame reaches the screen 17.3 ms
  // after its vsync (after the next one, as in software compositing here): the frames of
  // vsyncs 2 (20.7) and 5 (70.8) are shown at 38 and 88.1, and nothing in between.
  const seqTrace = (steps: { arrived: number; shown: number }[]) => {
    const ev: TraceEvent[] = [
      { name: 'thread_name', cat: '__metadata', ph: 'M', ts: 0, pid: 10, tid: COMPOSITOR, args: { name: 'Compositor' } },
      { name: 'thread_name', cat: '__metadata', ph: 'M', ts: 0, pid: 10, tid: MAIN, args: { name: 'CrRendererMain' } },
      { name: 'TimeStamp', cat: 'devtools.timeline', ph: 'I', ts: ms(300), pid: 10, tid: MAIN, args: { data: { message: FULL_DRAW_STAMP } } },
      input(0, 'MOUSE_PRESSED_EVENT', 0),
      input(140, 'MOUSE_RELEASED_EVENT', 99),
    ];
    for (let k = 0; k < 10; k++) ev.push({ name: 'BeginFrame', cat: 'f', ph: 'I', ts: ms(4 + 16.7 * k), pid: 10, tid: COMPOSITOR, args: { frameSeqId: k + 1 } });
    for (const [seq, at] of [[2, 36], [5, 86.1]]) ev.push({ name: 'DrawFrame', cat: 'f', ph: 'I', ts: ms(at), pid: 10, tid: COMPOSITOR, args: { frameSeqId: seq } }, shown(at + 2));
    steps.forEach((st, k) => {
      const id = { local: String(50 + k) };
      ev.push(
        { ...input(st.arrived - 1, 'MOUSE_DRAGGED_EVENT', 50 + k) },
        { name: 'BrowserMainToRendererCompositor', cat: 'input', ph: 'e', ts: ms(st.arrived), pid: 10, tid: MAIN, id2: id },
        { name: 'EventLatency', cat: 'input', ph: 'e', ts: ms(st.shown), pid: 10, tid: MAIN, id2: id },
      );
    });
    return frameFigures(ev).longFrames.filter((l) => Math.round(l.atMs) === 38);
  };

  it('a step that came after a vsync and was shown in the frame right after it was not waiting; one that missed a vsync was', () => {
    // Arrived at 25 (after the vsync at 20.7, before its main frame) and shown at 38; the next
    // step arrived at 60, after the vsync at 54.1: the frame of the vsync at 70.8 (shown at
    // 88.1) is the first that could show it. Nothing was waiting: the gap waited for input.
    // (Taking the vsync just before each display — 37.4 and 87.5 — made the vsync at 70.8 a
    // missed one, and this gap a dropped frame.)
    const [waited] = seqTrace([{ arrived: 25, shown: 38 }, { arrived: 60, shown: 88.1 }]);
    expect(waited.ms).toBeCloseTo(50.1, 6);
    expect(waited.dropped).toBe(false);
    // A step that arrived at 45, before the vsync at 54.1, and was shown only at 88.1: dropped.
    expect(seqTrace([{ arrived: 25, shown: 38 }, { arrived: 45, shown: 88.1 }])[0].dropped).toBe(true);
    // An EventLatency that ended off any displayed frame (an event merged into a later one)
    // says nothing of when its step was shown: arrived at 30, after the vsync of the frame at
    // 38, and ended at 31.5, it counts as waiting at the vsync at 37.4 (taken as shown at 31.5, not).
    expect(seqTrace([{ arrived: 25, shown: 38 }, { arrived: 30, shown: 31.5 }])[0].dropped).toBe(true);
  });
});

describe('frames while dragging', () => {
  it('counts the displayed frames between each press and its release, over the drags\' own time', () => {
    const ev = [...trace([38, 54.7, 71.4, 88.1, 104.8, 121.5, 138.2, 154.9]), input(160, 'MOUSE_RELEASED_EVENT', 21)];
    // A wheel step and a frame after the release: in the motion, not in a drag.
    ev.push(input(190, 'MOUSE_WHEEL_EVENT', 22), shown(180));
    const f = frameFigures(ev);
    expect(f.dragging.displayed).toBe(8);
    expect(f.dragging.ms).toBeCloseTo(160, 6);
    expect(f.dragging.fps).toBeCloseTo(50, 6);
    // From the drag's first frame on screen to its last: 7 intervals in 116.9 ms.
    expect(f.dragging.shownMs).toBeCloseTo(116.9, 6);
    expect(f.dragging.shownFps).toBeCloseTo(7000 / 116.9, 6);
    expect(f.displayed).toBe(9);
  });

  it('takes each drag\'s frames apart: the time between two drags is not a frame interval', () => {
    const frames = [30, 46.7, 63.4, 80.1, 96.8, 400, 416.7, 433.4, 466.8];
    const ev = [...trace(frames), input(100, 'MOUSE_RELEASED_EVENT', 21), input(380, 'MOUSE_PRESSED_EVENT', 22), input(470, 'MOUSE_RELEASED_EVENT', 23)];
    const f = frameFigures(ev);
    // 4 intervals in 66.8 ms, then 3 in 66.8 ms (one of them a dropped frame of 33.4 ms).
    expect(f.dragging.shownMs).toBeCloseTo(133.6, 6);
    expect(f.dragging.shownFps).toBeCloseTo(7000 / 133.6, 6);
  });
});

describe('the gesture', () => {
  it('turns a notched wheel 5 notches of 120 a phase, 40 ms apart, and ends at its starting zoom or a notch out of it (a zoom the flicks never reached)', () => {
    const g = panZoomGesture(700, 450, 8, 20, 'notched');
    const wheel = g.filter((e) => e.params.type === 'mouseWheel');
    expect(wheel.map((e) => e.params.deltaY)).toEqual([...Array(5).fill(-120), ...Array(5).fill(120), ...Array(5).fill(-120), ...Array(5).fill(120), 120]);
    expect(wheel.slice(1, 5).map((e, k) => e.at - wheel[k].at)).toEqual([40, 40, 40, 40]);
    // Every event in a slot of its own, in order.
    expect(g.every((e, k) => k === 0 || e.at > g[k - 1].at)).toBe(true);
    expect(panZoomGesture(700, 450, 8, 0, 'notched').filter((e) => e.params.type === 'mouseWheel')).toHaveLength(20);
    // The smooth wheel as before: 80 steps of 8 a phase and 20 more in.
    expect(panZoomGesture(700, 450, 8, 20).filter((e) => e.params.type === 'mouseWheel')).toHaveLength(340);
  });
});

describe('the motion window', () => {
  it('leaves out input events the trace has after the gesture was sent (Chromium\'s own phase-end wheel event)', () => {
    const ev = [...trace([38, 54.7, 71.4, 88.1, 104.8, 121.5, 138.2, 154.9]), input(660, 'MOUSE_WHEEL', 30), shown(670)];
    // Without the gesture's length the late wheel event stretches the motion to 660 ms.
    expect(frameFigures(ev).motionMs).toBeCloseTo(660, 6);
    const f = frameFigures(ev, 160);
    expect(f.motionMs).toBeCloseTo(160, 6);
    expect(f.inputEvents).toBe(21);
    // The full-detail frame at 215 comes 55 ms after the last input of the gesture.
    expect(f.settleMs).toBeCloseTo(55, 6);
  });
});

describe('wheel steps DevTools holds back', () => {
  const stage = (name: string, ph: 'b' | 'e', t: number, id: number): TraceEvent => ({ name, cat: 'input', ph, ts: ms(t), pid: 10, tid: MAIN, id2: { local: String(id) } });
  /** The drag of `trace`, then one wheel step created at 170 that the browser forwards at `forwardAt`; frames on screen as given. */
  function withWheel(frames: number[], forwardAt: number): TraceEvent[] {
    return [
      ...trace(frames),
      input(170, 'MOUSE_WHEEL', 99),
      stage('GenerationToBrowserMain', 'b', 170, 99),
      stage('GenerationToBrowserMain', 'e', forwardAt, 99),
      stage('BrowserMainToRendererCompositor', 'e', forwardAt + 0.2, 99),
    ];
  }

  it('starts the redraw clock when the browser forwarded the last input, and says how long it was held', () => {
    // The full-detail draw's frame is on screen at 215 ms (see trace).
    const held = frameFigures(withWheel([21.3, 38, 54.7, 71.4, 88.1, 104.8, 121.5, 138.2, 154.9, 171.6], 196));
    expect(held.settleFromCreatedMs).toBeCloseTo(45, 6);
    expect(held.heldMs).toBeCloseTo(26, 6);
    expect(held.settleMs).toBeCloseTo(19, 6);
    // Forwarded at once (a drag move's 0.1 ms): the two clocks agree to that.
    const atOnce = frameFigures(withWheel([21.3, 38, 54.7, 71.4, 88.1, 104.8, 121.5, 138.2, 154.9, 171.6], 170.1));
    expect(atOnce.settleMs).toBeCloseTo(44.9, 6);
    expect(atOnce.heldMs).toBeCloseTo(0.1, 6);
  });

  it('marks a long frame that waited for input as held when a wheel step sent before its first empty vsync was still held by DevTools then', () => {
    // Frames every 16.7 ms until 104.8, then none until 160: a 55.2-ms interval whose empty
    // vsyncs are at 121.0, 137.7 and 154.4.
    const frames = [21.3, 38, 54.7, 71.4, 88.1, 104.8, 160];
    const wheel = (forwardAt: number, arriveAt: number) => [
      ...trace(frames),
      input(130, 'MOUSE_WHEEL', 99),
      stage('GenerationToBrowserMain', 'b', 130, 99),
      stage('GenerationToBrowserMain', 'e', forwardAt, 99),
      stage('BrowserMainToRendererCompositor', 'e', arriveAt, 99),
    ];
    const gap = (ev: TraceEvent[]) => frameFigures(ev).longFrames.find((l) => Math.abs(l.atMs - 104.8) < 1e-6);
    // Sent before the first empty vsync (121.0)? No: at 130. So nothing was held then.
    expect(gap(wheel(158.3, 158.5))).toMatchObject({ dropped: false, held: false });
    // Sent at 115 and held until 158.3 (past all three empty vsyncs): held, and nothing had reached the page.
    const early = (forwardAt: number, arriveAt: number) =>
      wheel(forwardAt, arriveAt).map((e) => ((e.name === 'EventLatency' || e.name === 'GenerationToBrowserMain') && e.ph === 'b' && e.id2?.local === '99' ? { ...e, ts: ms(115) } : e));
    expect(gap(early(158.3, 158.5))).toMatchObject({ dropped: false, held: true });
    expect(frameFigures(early(158.3, 158.5)).longFramesHeld).toBe(1);
    // Held until 125 only, it reached the page before the empty vsync at 137.7, which showed
    // nothing: the page dropped that frame, and a dropped frame is the page's whatever came before.
    expect(gap(early(125, 125.2))).toMatchObject({ dropped: true, held: false });
    // Forwarded at once, it reached the page at 115.3: the page dropped the frame, nothing was held.
    expect(gap(early(115.1, 115.3))).toMatchObject({ dropped: true, held: false });
  });
});
