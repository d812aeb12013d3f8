/**
 * Case viewer frames, as Chromium displays them: the harness's dense case (one 4000×3000 image,
 * 5,000 polygons in mixed states, 1400×900 page) in Debian Chromium with --disable-gpu (the
 * page's canvases and the compositor rasterise in software), panned and zoomed by a scripted
 * mouse at 125 Hz (drags, then wheel zoom) while a DevTools trace records. Two ways in for the
 * input, each run in turn (BENCH_INPUT=cdp, x11 or both; both by default where Debian's `xvfb`
 * is installed):
 * - `cdp`: headless, CDP Input.dispatchMouseEvent every 8 ms, the wheel a smooth one (∓8 a step,
 *   every slot), 5.2 s. DevTools holds each injected wheel event until the page has made a
 *   frame, a wait no real mouse's event has: it makes pauses mid-gesture that a real wheel does
 *   not;
 * - `x11`: headful Chromium on Xvfb, the input made by the X server itself (XTEST: x11Input.ts),
 *   as a real mouse's is, the drags every 8 ms and the wheel an ordinary notched one (∓120 a
 *   notch, 25 notches a second), 3.4 s.
 * Frame figures come from the trace (see frameTrace.ts: a displayed frame is a viz
 * `Display::FrameDisplayed`), not from requestAnimationFrame, which ticks every 16.7 ms whether
 * or not a frame is shown (its count is printed too, to show the difference). Also: the time from
 * the last input event until the full-detail redraw is on screen, for two endings of the gesture
 * (back at the starting zoom, panned; or at a new zoom), with the clock started when the browser
 * forwarded that event to the page (frameTrace.ts: `settleMs`, `longFramesHeld`). Prints figures
 * only. BENCH_RUNS=n repeats the gestures n times in fresh pages; BENCH_TRACE=path writes each
 * trace to path.WAY.N[.zoom].json (for DevTools' Performance panel); BENCH_PROFILE=1 adds a CPU
 * profile of the page during the gesture; BENCH_V8PROF=1 adds V8's sampling profiler of every
 * thread to the trace (the raster workers' too: with BENCH_TRACE, DevTools shows where their time
 * goes). Each gesture is measured twice in turn, in fresh pages: by the viewer, and on the
 * machine's floor — the same gestures with the viewer drawing nothing until the view has been
 * still for 300 ms (the harness's `&redraw=rest`), so the frames the floor drops are those
 * dropped with no drawing competing for the cores (its redraw figure is 300 ms and more by
 * construction). BENCH_REDRAW=viewer or rest measures one of the two only. The gesture starts
 * BENCH_START_MS (default 500) after the 5,000 shapes are drawn, as a user who zooms right after
 * opening a case does; the last lines compare the first second of each gesture, viewer against
 * floor (issue #42 item 16: a 250–270 ms gap there).
 */
import { writeFileSync } from 'node:fs';
import { chromium, type CDPSession, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath } from '../e2e/chromium';
import type {} from '../harness/hooks';
import { printHeaviest, type CpuProfile } from './cpuProfile';
import { cdpInput, FULL_DRAW_STAMP, frameFigures, INPUT_PERIOD_MS, panZoomGesture, playInput, quantile, startTrace, stopTrace, type SendInput, type WheelStyle } from './frameTrace';
import { connectXTest, xInput } from './x11Input';
import { hasXvfb, startXvfb } from './xvfb';
import { serveBuiltApp } from './servedApp';

/** Who draws during the gesture: the viewer, or nobody until the view is still (the floor; see above), and the harness hash that asks for it. */
interface Drawing {
  name: 'viewer' | 'floor';
  hash: string;
}
const VIEWER: Drawing = { name: 'viewer', hash: '' };
const FLOOR: Drawing = { name: 'floor', hash: '&redraw=rest' };
function drawings(): Drawing[] {
  const asked = process.env.BENCH_REDRAW ?? 'both';
  if (!['both', 'viewer', 'rest'].includes(asked)) throw new Error(`BENCH_REDRAW=${asked}: both, viewer or rest`);
  return asked === 'both' ? [VIEWER, FLOOR] : asked === 'rest' ? [FLOOR] : [VIEWER];
}
/** The gesture starts this long after the 5,000 shapes are drawn, ms. */
const START_MS = Number(process.env.BENCH_START_MS ?? 500);

async function openDense(page: Page, url: string, drawing: Drawing): Promise<number> {
  const t0 = performance.now();
  await page.goto(`${url}harness/viewer.html#case=dense5000${drawing.hash}`);
  await page.waitForFunction(
    () => {
      const v = window.__viewer;
      if (!v?.ready || !v.handle) return false;
      return Object.values(v.handle.drawnCounts(0)).reduce((a, b) => a + b, 0) >= 5000;
    },
    undefined,
    { timeout: 120_000 },
  );
  return (performance.now() - t0) / 1000;
}

/** A browser and how input reaches its pages. */
interface InputWay {
  name: 'cdp' | 'x11';
  label: string;
  wheel: WheelStyle;
  /** A fresh 1400×900 page, and how to send it input (given its CDP session). */
  newPage: () => Promise<Page>;
  sender: (page: Page, cdp: CDPSession) => Promise<SendInput>;
  close: () => Promise<void>;
}

const VIEWPORT = { width: 1400, height: 900 };
const ARGS = CHROMIUM_ARGS.filter((a) => a !== '--disable-quic');

async function cdpWay(): Promise<InputWay> {
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: ARGS });
  return {
    name: 'cdp',
    label: `CDP Input.dispatchMouseEvent, headless Chromium ${browser.version()}, smooth wheel (∓8 every 8 ms)`,
    wheel: 'smooth',
    newPage: () => browser.newPage({ viewport: VIEWPORT }),
    sender: async (_page, cdp) => cdpInput(cdp),
    close: () => browser.close(),
  };
}

/**
 * Headful Chromium on its own Xvfb, its window sized so the page is 1400×900 like the headless
 * one's, input made by the X server (XTEST). Before a page is measured, a pointer move is checked
 * to land where the page expects it.
 */
async function x11Way(): Promise<InputWay> {
  const xvfb = await startXvfb();
  const env = { ...process.env, DISPLAY: `:${xvfb.display}` };
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    headless: false,
    env,
    args: [...ARGS, '--window-position=0,0', `--window-size=${VIEWPORT.width},${VIEWPORT.height + 200}`],
  });
  const x = await connectXTest(xvfb.display);
  return {
    name: 'x11',
    label: `the X server (XTEST on Xvfb :${xvfb.display}), headful Chromium ${browser.version()}, notched wheel (∓120 a notch, 25 a second)`,
    wheel: 'notched',
    newPage: async () => {
      const ctx = await browser.newContext({ viewport: null });
      const page = await ctx.newPage();
      // The window's height less the browser's own bars: a page of 1400×900.
      const cdp = await ctx.newCDPSession(page);
      const { windowId } = (await cdp.send('Browser.getWindowForTarget')) as { windowId: number };
      const { outer, inner } = (await page.evaluate('({ outer: outerHeight, inner: innerHeight })')) as { outer: number; inner: number };
      await cdp.send('Browser.setWindowBounds', { windowId, bounds: { left: 0, top: 0, width: VIEWPORT.width, height: VIEWPORT.height + outer - inner } });
      await cdp.detach();
      await page.waitForFunction(`innerWidth === ${VIEWPORT.width} && innerHeight === ${VIEWPORT.height}`, undefined, { timeout: 5000 });
      return page;
    },
    sender: async (page) => {
      const g = (await page.evaluate('({ x: screenX + outerWidth - innerWidth, y: screenY + outerHeight - innerHeight })')) as { x: number; y: number };
      // Check: a pointer move reaches the page where it was sent. The listener is in place before
      // the move is sent; a move to where the pointer already is makes no event, so each try
      // goes to another point.
      for (let k = 0; ; k++) {
        const [px, py] = [3 + k, 5 + k];
        await page.evaluate(() => {
          const w = window as unknown as { __moved?: Promise<[number, number]> };
          w.__moved = new Promise((resolve) => window.addEventListener('pointermove', (e) => resolve([e.clientX, e.clientY]), { once: true }));
        });
        x.move(g.x + px, g.y + py);
        await x.sync();
        const seen = (await page.evaluate(
          () => Promise.race([(window as unknown as { __moved: Promise<[number, number]> }).__moved, new Promise((r) => setTimeout(() => r(null), 1000))]),
        )) as [number, number] | null;
        if (seen && (seen[0] !== px || seen[1] !== py)) throw new Error(`an X pointer move to the page's (${px}, ${py}) reached it at (${seen[0]}, ${seen[1]})`);
        if (seen) break;
        if (k === 4) throw new Error('X pointer moves did not reach the page');
      }
      if (x.errors.length) throw new Error(`the X server refused input: ${x.errors.join('; ')}`);
      return xInput(x, g);
    },
    close: async () => {
      x.close();
      await browser.close();
      xvfb.close();
    },
  };
}

function inputWays(): (() => Promise<InputWay>)[] {
  const asked = process.env.BENCH_INPUT ?? 'both';
  const x11 = asked === 'x11' || asked === 'both';
  if (x11 && !hasXvfb()) {
    console.log('!!! viewer: Xvfb is not installed (apt-get install xvfb): the real-input (x11) runs are SKIPPED, CDP input only');
    return asked === 'x11' ? [] : [cdpWay];
  }
  return [...(asked === 'x11' ? [] : [cdpWay]), ...(x11 ? [x11Way] : [])];
}

export async function run(): Promise<void> {
  const app = await serveBuiltApp('benchlens-viewer-bench');
  const runs = Math.max(1, Number(process.env.BENCH_RUNS ?? 1));
  // Two endings: back at the zoom the gesture started from (the view at rest is the last
  // drawing moved by whole pixels plus the strips the pan exposed: useFullDetail's shift), and
  // further on (a zoom no drawing was made at: the whole view is drawn again): frameTrace.ts panZoomGesture.
  const endings = [
    { name: 'ends at the starting zoom, panned', endZoom: 0 },
    { name: 'ends at a new zoom', endZoom: 20 },
  ];
  try {
    for (const make of inputWays()) {
      const way = await make();
      console.log(`input through ${way.label}; --disable-gpu: canvas and compositor rasterise in software`);
      console.log(`each gesture starts ${START_MS} ms after the 5,000 shapes are drawn; ${drawings().map((d) => d.name).join(' then ')} in turn (floor: nothing drawn until the view has been still for 300 ms, its redraw figures are that wait)`);
      try {
        const seen: Measured[] = [];
        for (let r = 0; r < runs; r++) for (const ending of endings) for (const drawing of drawings()) {
          const page = await way.newPage();
          seen.push(await measure(way, page, app.url, r, runs, ending, drawing));
          await page.context().close();
        }
        firstSecondSummary(way, seen);
        for (let r = 0; r < runs; r++) {
          const page = await way.newPage();
          await imageArrival(page, app.url, r, runs);
          await page.context().close();
        }
      } finally {
        await way.close();
      }
    }
  } finally {
    await app.close();
  }
}

/**
 * The case's image arriving after its shapes are drawn, as in the app (the harness's `image=late`
 * holds the decoded image back until asked): the main thread's long tasks (over 50 ms, as the
 * page's PerformanceObserver reports them) in the 1.5 s after it is handed to the viewer.
 */
async function imageArrival(page: Page, url: string, r: number, runs: number): Promise<void> {
  await page.goto(`${url}harness/viewer.html#case=dense5000&image=late`);
  await page.waitForFunction(
    () => {
      const s = window.__viewer?.ready && window.__viewer.handle && window.__viewer.rasterStats();
      return !!s && s.warmed === s.warmUpParts;
    },
    undefined,
    { timeout: 120_000 },
  );
  await page.waitForTimeout(500);
  const tasks = await page.evaluate(async () => {
    const seen: number[] = [];
    const observer = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) seen.push(e.duration);
    });
    observer.observe({ type: 'longtask' });
    window.__viewer!.releaseImage();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    observer.disconnect();
    return seen;
  });
  console.log(`dense5000, its 4000×3000 image arriving after the shapes (decoded, with its pre-scaled copies), run ${r + 1}/${runs}: ${tasks.length} main-thread tasks over 50 ms in the next 1.5 s${tasks.length ? ` (${tasks.map((t) => t.toFixed(0)).join(', ')} ms)` : ''}`);
}

/** What the summary compares: one gesture's figures. */
interface Measured {
  drawing: Drawing['name'];
  fps: number;
  max: number;
  firstSecond: { longestMs: number; atMs: number };
  /** The raster workers' warm-up parts drawn of all, when the gesture started (null without workers). */
  warm: string | null;
}

/**
 * The first second of each gesture, viewer against floor: the longest wait for a new frame in
 * it (first frame's latency or an interval between displayed frames), then the displayed fps
 * and the longest interval over the whole motion.
 */
function firstSecondSummary(way: InputWay, seen: Measured[]): void {
  const list = (d: Drawing['name'], f: (m: Measured) => number, digits: number) =>
    seen.filter((m) => m.drawing === d).map((m) => f(m).toFixed(digits)).join(', ') || '—';
  const of = (d: Drawing['name']) =>
    `${d}: longest wait for a new frame in the first second ${list(d, (m) => m.firstSecond.longestMs, 1)} ms ` +
    `(at ${list(d, (m) => m.firstSecond.atMs, 0)} ms into the motion); displayed ${list(d, (m) => m.fps, 1)} fps; longest interval in the motion ${list(d, (m) => m.max, 1)} ms`;
  console.log(`first second of the gesture, ${way.name} input, ${START_MS} ms after the draw, each run in order:`);
  for (const d of drawings()) console.log(`  ${of(d.name)}`);
  const warm = seen.filter((m) => m.drawing === 'viewer').map((m) => m.warm ?? 'no workers');
  if (warm.length) console.log(`  the viewer's raster warm-up when its gestures started (parts drawn of all): ${warm.join(', ')}`);
}

async function measure(way: InputWay, page: Page, url: string, r: number, runs: number, ending: { name: string; endZoom: number }, drawing: Drawing): Promise<Measured> {
  const loadS = await openDense(page, url, drawing);
  if (r === 0 && !ending.endZoom && drawing.name === 'viewer') console.log(`dense5000 first full draw: ${loadS.toFixed(2)} s after navigation (incl. drawing, encoding and decoding the 12 MP test image)`);
  // START_MS after the draw: the raster workers' warm-up (three whole views) may still be under
  // way, as it is for a user who zooms right after opening a case; how far it got is printed.
  await page.waitForTimeout(START_MS);
  const warm = await page.evaluate(() => {
    const s = window.__viewer!.rasterStats();
    return s && `${s.warmed}/${s.warmUpParts}`;
  });
  const pane = (await page.getByTestId('viewer-pane-0').boundingBox())!;
  const gesture = panZoomGesture(pane.x + pane.width / 2, pane.y + pane.height / 2, 8, ending.endZoom, way.wheel);
  const cdp = await page.context().newCDPSession(page);
  // rAF callbacks during the gesture, for comparison with the displayed frames only.
  await page.evaluate(`(() => { window.__raf = 0; window.__rafStop = false;
    const tick = () => { window.__raf++; if (!window.__rafStop) requestAnimationFrame(tick); };
    requestAnimationFrame(tick); })()`);
  const profile = process.env.BENCH_PROFILE === '1';
  const traceName = `${process.env.BENCH_TRACE}.${way.name}.${drawing.name}.${r + 1}${ending.endZoom ? '.zoom' : ''}`;
  if (profile) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
  }
  const send = await way.sender(page, cdp);
  await startTrace(cdp);
  const rafBefore = (await page.evaluate('window.__raf')) as number;
  const sent = await playInput(send, gesture);
  const rafAfter = (await page.evaluate('window.__raf')) as number;
  // Motion is over: leave time for the full-detail redraw to reach the screen.
  await page.waitForTimeout(1500);
  const events = await stopTrace(cdp);
  if (profile) {
    const cpu = ((await cdp.send('Profiler.stop')) as { profile: CpuProfile }).profile;
    printHeaviest(cpu, 12);
    if (process.env.BENCH_TRACE) writeFileSync(`${traceName}.cpuprofile`, JSON.stringify(cpu));
  }
  await page.evaluate('window.__rafStop = true');
  if (process.env.BENCH_TRACE) writeFileSync(`${traceName}.json`, JSON.stringify({ traceEvents: events }));
  // The gesture's own length, so that Chromium's phase-end wheel event 500 ms after a notched wheel is not taken for input.
  const f = frameFigures(events, sent[sent.length - 1] - sent[0]);
  const gaps = sent.slice(1).map((t, k) => t - sent[k]);
  const t = await page.evaluate(() => window.__viewer!.handle!.transform());
  const rafFps = (rafAfter - rafBefore) / (sent[sent.length - 1] / 1000);
  console.log(
    `dense5000 pan + zoom, ${drawing.name === 'floor' ? 'FLOOR (nothing drawn until still), ' : ''}${way.name} input (${ending.name}), run ${r + 1}/${runs}: ${f.inputEvents} input events in ${(f.motionMs / 1000).toFixed(2)} s ` +
      `(sent every ${INPUT_PERIOD_MS} ms${way.wheel === 'notched' ? ', wheel notches every 40 ms' : ''}; achieved median ${quantile(gaps, 0.5).toFixed(1)} ms, p95 ${quantile(gaps, 0.95).toFixed(1)} ms; ` +
      `in the trace the longest pause ${f.inputGapMax.toFixed(0)} ms, ${f.inputGapsOver50} pauses ≥ 50 ms), final zoom ${(t.scale * 100).toFixed(0)}%`,
  );
  console.log(
    `  displayed: ${f.displayed} frames = ${f.fps.toFixed(1)} fps; frame interval median ${f.median.toFixed(1)} ms, p95 ${f.p95.toFixed(1)} ms, ` +
      `max ${f.max.toFixed(1)} ms; ${f.intervals.filter((x) => x > 33.4).length} frames over 33 ms — target ≥ 60 fps, none over 33 ms`,
  );
  console.log(
    `  while dragging (a move every 8 ms): ${f.dragging.shownFps.toFixed(1)} fps from each drag's first frame on screen to its last (the mean frame interval, ${(1000 / f.dragging.shownFps).toFixed(2)} ms); ` +
      `press to release ${f.dragging.displayed} frames in ${(f.dragging.ms / 1000).toFixed(2)} s = ${f.dragging.fps.toFixed(1)} fps, with each drag's first-frame latency` +
      (way.wheel === 'notched' ? " (each notch's zoom glides for 60 ms: the frames between notches count in the displayed fps above)" : ''),
  );
  console.log(
    `  first second: the longest wait for a new frame ${f.firstSecond.longestMs.toFixed(1)} ms, at ${f.firstSecond.atMs.toFixed(0)} ms into the motion` +
      (warm ? `; raster warm-up at the start ${warm} parts` : ''),
  );
  console.log(
    `  first frame on screen ${f.firstFrame.fromMoveMs.toFixed(1)} ms after the first drag move, ${f.firstFrame.fromInputMs.toFixed(1)} ms after the press ` +
      `before it: the gesture's latency, not a frame interval`,
  );
  const long = f.intervals.filter((x) => x > 33.4).length;
  console.log(
    `  of the ${long} frames over 33 ms, ${f.longFramesDropped} dropped (a pan / zoom step not yet on screen had reached the page before a vsync that showed nothing new, ` +
      `or a wheel notch's glide was under way at it: ${f.longFramesGlide} of them; ${f.glides} glides in the motion); ` +
      `${long - f.longFramesDropped} waited for input (no step had reached the page by the vsyncs in between), ${f.longFramesHeld} of them for a wheel step sent but ` +
      `held by DevTools (it forwards an injected wheel event only once the page has made a frame; a real mouse's is forwarded at once)`,
  );
  for (const l of f.longFrames)
    console.log(
      `    frame of ${l.ms.toFixed(1)} ms at ${l.atMs.toFixed(0)} ms into the motion; input sent in it: ${l.inputs.join(', ') || 'none'}; ` +
        `${l.dropped ? (l.glide ? 'dropped: a glide was under way' : 'dropped: a step was waiting') : 'waited for input'}${l.held ? ': a wheel step DevTools was holding' : ''}` +
        // For a dropped frame, whether the page was at work: its main thread's tasks in the
        // interval and the longest of them (wall / CPU: more wall than CPU is a thread waiting
        // for a core), and the raster workers' tasks in it (both workers together).
        (l.dropped
          ? `; the page in it: main thread ${l.page.mainMs.toFixed(0)} ms of tasks (longest ${l.page.longestTaskMs.toFixed(1)} ms, ${l.page.longestTaskCpuMs.toFixed(1)} ms CPU), raster workers ${l.page.workersMs.toFixed(0)} ms`
          : ''),
    );
  console.log(
    `  cross-checks: ${f.drawFrames} DrawFrame, ${f.dropped} DroppedFrame in the window; ${f.fullDrawsInMotion} full-detail draws during the motion; ` +
      `${f.rasterRequestsInMotion} raster-worker drawings started during the motion, ${f.rasterDropped} dropped (the view moved on); ` +
      `rAF callbacks ${(rafFps).toFixed(1)} per s (what the old bench printed as fps)`,
  );
  const th = (n: string, label: string) => {
    const x = f.threads[n] ?? { wall: 0, cpu: 0 };
    return `${label} ${x.wall.toFixed(0)} ms busy / ${x.cpu.toFixed(0)} ms CPU (${(x.cpu / Math.max(1, f.displayed)).toFixed(1)} ms CPU per displayed frame)`;
  };
  console.log(`  threads over the ${(f.motionMs / 1000).toFixed(2)} s: ${th('CrRendererMain', 'page main')}; ${th('Compositor', 'page compositor')}; ${th('VizCompositorThread', 'viz (software compositing)')}`);
  console.log(
    `  full-detail redraw on screen ${Number.isNaN(f.settleMs) ? `never (no "${FULL_DRAW_STAMP}" after the motion)` : `${f.settleMs.toFixed(0)} ms`} after the last input event ` +
      `reached the browser, drawn by ${await page.evaluate(() => document.querySelectorAll<HTMLCanvasElement>('[data-testid="viewer-pane-0"] canvas')[1]?.dataset.drawnBy ?? '?')} — target ≤ 100 ms ` +
      `(${Number.isNaN(f.settleFromCreatedMs) ? '?' : f.settleFromCreatedMs.toFixed(0)} ms after the event was made; the browser held it ${f.heldMs.toFixed(0)} ms before forwarding it)`,
  );
  const d = f.redraw;
  const n = (x: number) => (Number.isNaN(x) ? '?' : x.toFixed(0));
  console.log(
    `    of which: the view at rest on screen (still the moved drawing) after ${n(d.restMs)} ms; the raster workers asked after ${n(d.askMs)} ms; ` +
      `their parts done ${n(d.rasterMs)} ms later in ${d.workerTasks} tasks (${n(d.rasterCpuMs)} ms worker CPU); on screen ${n(d.showMs)} ms after that`,
  );
  await cdp.detach();
  return { drawing: drawing.name, fps: f.fps, max: f.max, firstSecond: f.firstSecond, warm };
}
