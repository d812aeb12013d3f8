import { afterEach, describe, expect, it, vi } from 'vitest';
import { PARTS, RasterPool, WARM_ROUNDS, WORKERS, type RasterResult } from './rasterPool';
import type { PartVia, RasterReply, RasterRequest } from './rasterProtocol';

/** A stand-in for a raster worker: records what the pool posts; the test answers for it. */
class FakeWorker {
  posted: RasterRequest[] = [];
  terminated = false;
  onmessage: ((e: MessageEvent<RasterReply>) => void) | null = null;
  onerror: ((e: ErrorEvent) => void) | null = null;
  postMessage(m: RasterRequest) {
    this.posted.push(m);
  }
  terminate() {
    this.terminated = true;
  }
  reply(m: RasterReply) {
    this.onmessage?.({ data: m } as MessageEvent<RasterReply>);
  }
  /** Every draw request this worker got, in order. */
  draws() {
    return this.posted.filter((m): m is Extract<RasterRequest, { type: 'draw' }> => m.type === 'draw');
  }
  answered = 0;
  /** Answers the oldest unanswered draw request with a bitmap named `<name> <part>` (that came `via`). */
  answerNext(name = 'part', via?: PartVia) {
    const r = this.draws()[this.answered++];
    const b = bitmap(`${name} ${r.part}`);
    this.reply({ type: 'drawn', pane: r.pane, generation: r.generation, bitmap: b, via });
    return b;
  }
  pending() {
    return this.draws().length > this.answered;
  }
  /** Every abort this worker got. */
  aborts() {
    return this.posted.filter((m): m is Extract<RasterRequest, { type: 'abort' }> => m.type === 'abort');
  }
  /** Answers the oldest unanswered draw request as a worker that stopped it: no bitmap, `aborted`. */
  answerAborted() {
    const r = this.draws()[this.answered++];
    this.reply({ type: 'drawn', pane: r.pane, generation: r.generation, bitmap: null, aborted: true });
  }
}

const bitmap = (name: string) => ({ name, close: vi.fn() }) as unknown as ImageBitmap & { name: string; close: ReturnType<typeof vi.fn> };
const view = { transform: { scale: 0.5, x: 10, y: 20 }, width: 100, height: 80, pixelRatio: 1, w: 100, h: 80 };
const scene = { styles: [], style: new Uint16Array(0), coords: new Float64Array(0), offsets: new Uint32Array(1), bounds: new Float64Array(0) };

function start(transfer = false) {
  const workers: FakeWorker[] = [];
  const pool = new RasterPool(() => {
    const w = new FakeWorker();
    workers.push(w);
    return w as unknown as Worker;
  }, transfer);
  return { pool, workers };
}

/** A ready pool holding pane 1's shapes, warming up on `view`. */
async function warming() {
  const { pool, workers } = start();
  for (const w of workers) w.reply({ type: 'ready', ok: true, why: '' });
  await pool.settled;
  pool.setContent(1, 1, scene);
  pool.warm(1, 1, view);
  return { pool, workers };
}

afterEach(() => vi.useRealTimers());

describe('the raster worker pool', () => {
  it('is ready only once every worker says it can draw', () => {
    const { pool, workers } = start();
    expect(workers).toHaveLength(WORKERS);
    workers[0].reply({ type: 'ready', ok: true, why: '' });
    expect(pool.state).toBe('starting');
    workers[1].reply({ type: 'ready', ok: true, why: '' });
    expect(pool.state).toBe('ready');
  });

  it('fails, and stops its workers, when one cannot draw, errors, or never answers', async () => {
    const a = start();
    a.workers[0].reply({ type: 'ready', ok: false, why: 'no OffscreenCanvas in workers' });
    expect(a.pool.state).toBe('failed');
    expect(a.pool.why).toContain('no OffscreenCanvas in workers');
    expect(a.workers.every((w) => w.terminated)).toBe(true);
    expect(await a.pool.draw(1, 1, view)).toEqual({ failed: expect.stringContaining('OffscreenCanvas') });

    const b = start();
    b.workers[1].onerror?.({ message: 'SyntaxError', preventDefault() {} } as ErrorEvent);
    expect(b.pool.state).toBe('failed');

    vi.useFakeTimers();
    const c = start();
    c.workers[0].reply({ type: 'ready', ok: true, why: '' });
    vi.advanceTimersByTime(10_000);
    expect(c.pool.state).toBe('failed');
    expect(c.pool.why).toBe('the raster workers did not start');
  });

  it('hands out the parts one at a time to whichever worker is free, and returns them in plan order', async () => {
    const { pool, workers } = start();
    for (const w of workers) w.reply({ type: 'ready', ok: true, why: '' });
    pool.setContent(3, 7, scene);
    expect(pool.hasContent(3, 7)).toBe(true);
    // Each worker got its own copy of the shapes.
    expect(workers.map((w) => w.posted[0].type)).toEqual(['content', 'content']);
    const done = pool.draw(3, 7, view);
    expect(workers.map((w) => w.draws().map((r) => r.part))).toEqual([[0], [1]]);
    // Worker 1 finishes first and takes part 2; then worker 0 takes part 3.
    workers[1].answerNext();
    expect(workers[1].draws().map((r) => r.part)).toEqual([1, 2]);
    workers[0].answerNext();
    workers[1].answerNext();
    expect(workers[0].draws().map((r) => r.part)).toEqual([0, 3]);
    workers[0].answerNext();
    const r = (await done) as { bitmaps: (ImageBitmap & { name: string })[] };
    expect(r.bitmaps.map((b) => b.name)).toEqual(Array.from({ length: PARTS }, (_, k) => `part ${k}`));
    expect(workers[0].draws()[0]).toMatchObject({ pane: 3, content: 7, parts: PARTS, ...view });
    expect(pool.drawn).toBe(1);
  });

  it('says how a drawing\'s parts came: as its workers sent them, or mixed; and tells its workers to transfer them when started so (the test hook)', async () => {
    const { pool, workers } = start();
    for (const w of workers) w.reply({ type: 'ready', ok: true, why: '' });
    expect(workers.map((w) => w.posted.some((m) => m.type === 'transfer'))).toEqual([false, false]);
    pool.setContent(3, 7, scene);
    const answerAll = (via: (n: number) => PartVia) => {
      for (let k = 0; k < PARTS; k++) {
        const n = workers[0].pending() ? 0 : 1;
        workers[n].answerNext('part', via(n));
      }
    };
    const one = pool.draw(3, 7, view);
    answerAll(() => 'snapshot');
    expect(await one).toMatchObject({ via: 'snapshot' });
    const two = pool.draw(3, 7, view);
    answerAll((n) => (n === 0 ? 'snapshot' : 'transfer'));
    expect(await two).toMatchObject({ via: 'mixed' });

    const t = start(true);
    expect(t.workers.map((w) => w.posted.map((m) => m.type))).toEqual([['transfer'], ['transfer']]);
  });

  it('hands a part to every idle worker at once, the next to whichever comes free first, and sends the band edges along', async () => {
    const { pool, workers } = start();
    for (const w of workers) w.reply({ type: 'ready', ok: true, why: '' });
    pool.setContent(3, 7, scene);
    const cuts = [0, 10, 30, 50, 80];
    const done = pool.draw(3, 7, { ...view, cuts });
    expect(workers.map((w) => w.draws().map((r) => r.part))).toEqual([[0], [1]]);
    // Worker 1 is back first: it takes part 2, and worker 0, back next, part 3.
    workers[1].answerNext();
    workers[0].answerNext();
    expect(workers.map((w) => w.draws().map((r) => r.part))).toEqual([[0, 3], [1, 2]]);
    workers[1].answerNext();
    workers[0].answerNext();
    const r = (await done) as { bitmaps: (ImageBitmap & { name: string })[] };
    expect(r.bitmaps.map((b) => b.name)).toEqual(Array.from({ length: PARTS }, (_, k) => `part ${k}`));
    expect(workers.flatMap((w) => w.draws()).every((d) => d.cuts === cuts || JSON.stringify(d.cuts) === JSON.stringify(cuts))).toBe(true);
  });

  it('drops a drawing made stale by a newer one for the same pane: its bitmaps are closed, its last part never drawn', async () => {
    const { pool, workers } = start();
    for (const w of workers) w.reply({ type: 'ready', ok: true, why: '' });
    const old = pool.draw(1, 1, view);
    const first = workers[0].answerNext('old'); // part 0 is back; worker 0 goes on with part 2
    const newer = pool.draw(1, 1, { ...view, transform: { scale: 1, x: 0, y: 0 } });
    expect(await old).toEqual({ stale: true });
    expect(first.close).toHaveBeenCalled();
    // The parts in hand (1 and 2) come back, are closed, and the workers go on with the new drawing.
    const late = [workers[1].answerNext('old'), workers[0].answerNext('old')];
    for (const b of late) expect(b.close).toHaveBeenCalled();
    const gens = new Set([...workers[0].draws(), ...workers[1].draws()].map((r) => r.generation));
    const [g1, g2] = [...gens].sort();
    const oldParts = [...workers[0].draws(), ...workers[1].draws()].filter((r) => r.generation === g1).map((r) => r.part);
    expect(oldParts.sort()).toEqual([0, 1, 2]);
    let result: RasterResult | null = null;
    void newer.then((r) => (result = r));
    for (let guard = 0; !result && guard < 20; guard++) {
      for (const w of workers) if (w.pending()) w.answerNext('new');
      await Promise.resolve();
    }
    expect([...workers[0].draws(), ...workers[1].draws()].filter((r) => r.generation === g2).map((r) => r.part).sort()).toEqual(Array.from({ length: PARTS }, (_, k) => k));
    expect((result as unknown as { bitmaps: { name: string }[] }).bitmaps.map((b) => b.name)).toEqual(Array.from({ length: PARTS }, (_, k) => `new ${k}`));
  });

  it('stops handing out the parts of a drawing that is no longer wanted (the view moved)', async () => {
    const { pool, workers } = start();
    for (const w of workers) w.reply({ type: 'ready', ok: true, why: '' });
    let wanted = true;
    const done = pool.draw(4, 1, view, () => wanted);
    workers[0].answerNext();
    expect(workers[0].draws()).toHaveLength(2); // still wanted: part 2 handed out
    wanted = false;
    const late = workers[1].answerNext();
    expect(await done).toEqual({ stale: true });
    expect(late.close).toHaveBeenCalled();
    expect(workers[1].draws()).toHaveLength(1); // part 3 never drawn
  });

  it('tells the workers to stop the parts in progress of a drawing no longer wanted, at once when asked to (dropUnwanted)', async () => {
    const { pool, workers } = start();
    for (const w of workers) w.reply({ type: 'ready', ok: true, why: '' });
    let wanted = true;
    const done = pool.draw(4, 1, view, () => wanted);
    const gen = workers[0].draws()[0].generation;
    // Still wanted: nothing is aborted.
    pool.dropUnwanted();
    expect(workers.map((w) => w.aborts())).toEqual([[], []]);
    // The view moves: both parts in progress are aborted once (asking again sends nothing more).
    wanted = false;
    pool.dropUnwanted();
    pool.dropUnwanted();
    expect(await done).toEqual({ stale: true });
    expect(workers.map((w) => w.aborts())).toEqual([[{ type: 'abort', pane: 4, generation: gen }], [{ type: 'abort', pane: 4, generation: gen }]]);
    // A worker that stopped is free again: the next drawing's first part goes to it, not before.
    const next = pool.draw(4, 1, view);
    expect(workers.map((w) => w.draws().length)).toEqual([1, 1]);
    workers[0].answerAborted();
    expect(workers[0].draws().map((d) => d.generation)).toEqual([gen, gen + 1]);
    // One that finished its part anyway: the bitmap is closed, the worker goes on too.
    const late = workers[1].answerNext('late');
    expect(late.close).toHaveBeenCalled();
    expect(workers[1].draws().map((d) => d.generation)).toEqual([gen, gen + 1]);
    while (workers.some((w) => w.pending())) for (const w of workers) if (w.pending()) w.answerNext();
    expect('bitmaps' in (await next)).toBe(true);
  });

  it('aborts the parts in progress of a drawing replaced by a newer one for the same pane, and only those', () => {
    const { pool, workers } = start();
    for (const w of workers) w.reply({ type: 'ready', ok: true, why: '' });
    void pool.draw(1, 1, view);
    void pool.draw(2, 1, view); // another pane's drawing waits for a worker
    workers[0].answerNext(); // worker 0 takes part 2 of pane 1
    const gen = workers[0].draws()[0].generation;
    void pool.draw(1, 1, { ...view, transform: { scale: 2, x: 0, y: 0 } });
    expect(workers.map((w) => w.aborts().map((a) => [a.pane, a.generation]))).toEqual([[[1, gen]], [[1, gen]]]);
  });

  it('reports a worker that has no shapes for the content as failed (the page then draws in slices)', async () => {
    const { pool, workers } = start();
    for (const w of workers) w.reply({ type: 'ready', ok: true, why: '' });
    const done = pool.draw(2, 5, view);
    const r = workers[0].draws()[0];
    workers[0].reply({ type: 'drawn', pane: 2, generation: r.generation, bitmap: null, error: 'no shapes for that content' });
    expect(await done).toEqual({ failed: 'no shapes for that content' });
  });

  it('a warm-up draws the view WARM_ROUNDS times over while nothing else is asked, throws the parts away, and yields to a real drawing', async () => {
    const { pool, workers } = await warming();
    // One part per worker at a time, as for a real drawing.
    expect(workers.map((w) => w.draws().map((d) => d.part))).toEqual(workers.map((_, n) => [n % PARTS]));
    // A real drawing asked meanwhile gets every worker as it comes free, before further warm-up parts.
    const warmGen = workers[0].draws()[0].generation;
    const real = pool.draw(1, 1, view);
    const warmed = workers.map((w) => w.answerNext('warm'));
    for (const b of warmed) expect(b.close).toHaveBeenCalled();
    const realGen = warmGen + 1;
    expect(workers.map((w) => w.draws()[1].generation)).toEqual(workers.map(() => realGen));
    // The real parts, answered as they are handed out; warm-up parts wait behind them.
    const realPending = () => workers.find((x) => x.pending() && x.draws()[x.answered].generation === realGen);
    for (let w = realPending(); w; w = realPending()) w.answerNext();
    const r = (await real) as { bitmaps: (ImageBitmap & { name: string })[] };
    expect(r.bitmaps.map((b) => b.name)).toEqual(Array.from({ length: PARTS }, (_, k) => `part ${k}`));
    expect(pool.drawn).toBe(1);
    // Then the warm-up goes on until the view has been drawn WARM_ROUNDS times in all.
    while (workers.some((w) => w.pending())) for (const w of workers) if (w.pending()) w.answerNext('warm');
    const warmParts = workers.flatMap((w) => w.draws().filter((d) => d.generation === warmGen).map((d) => d.part));
    expect(warmParts.sort()).toEqual(Array.from({ length: WARM_ROUNDS * PARTS }, (_, k) => k % PARTS).sort());
    expect(pool.warmed).toBe(WARM_ROUNDS * PARTS);
    expect(pool.inProgress).toBe(0);
  });

  it('input ends a warm-up: no further part, the parts in progress told to stop, and their stops not counted as aborted drawings', async () => {
    const { pool, workers } = await warming();
    const warmGen = workers[0].draws()[0].generation;
    pool.stopWarming();
    expect(workers.map((w) => w.aborts())).toEqual(workers.map(() => [{ type: 'abort', pane: 1, generation: warmGen }]));
    for (const w of workers) w.answerAborted();
    expect(workers.map((w) => w.draws().length)).toEqual(workers.map(() => 1));
    expect(pool.aborted).toBe(0);
    expect(pool.warmed).toBe(0);
    // The workers are free for the next real drawing.
    const real = pool.draw(1, 1, view);
    while (workers.some((w) => w.pending())) for (const w of workers) if (w.pending()) w.answerNext();
    expect(await real).toMatchObject({ bitmaps: expect.any(Array) });
  });

  it("a warm-up after an aborted drawing is newer than every abort the pane's workers were told of, so it is drawn", async () => {
    const { pool, workers } = start();
    for (const w of workers) w.reply({ type: 'ready', ok: true, why: '' });
    await pool.settled;
    // A drawing of pane 1 that the motion made useless: its parts in progress are aborted.
    let moved = false;
    void pool.draw(1, 1, view, () => !moved);
    moved = true;
    pool.dropUnwanted();
    for (const w of workers) w.answerAborted();
    const newestAbort = Math.max(...workers.flatMap((w) => w.aborts().map((a) => a.generation)));
    // The pane's next content warms up: a worker skips every part at or below newestAbort
    // (raster.worker.ts wasAborted), so the warm-up parts must be above it.
    pool.setContent(1, 2, scene);
    pool.warm(1, 2, view);
    const warmUps = workers.map((w) => w.draws()[1]);
    for (const d of warmUps) expect(d).toMatchObject({ pane: 1, content: 2 });
    for (const d of warmUps) expect(d.generation).toBeGreaterThan(newestAbort);
    // Stopping it aborts exactly its generation, and a real drawing after it is newer still.
    pool.stopWarming();
    expect(workers.map((w) => w.aborts().at(-1)?.generation)).toEqual(workers.map(() => warmUps[0].generation));
    for (const w of workers) w.answerAborted();
    void pool.draw(1, 2, view);
    expect(workers[0].draws().at(-1)!.generation).toBeGreaterThan(warmUps[0].generation);
  });

  it('says when it is settled, ready or failed', async () => {
    const a = start();
    for (const w of a.workers) w.reply({ type: 'ready', ok: true, why: '' });
    await a.pool.settled;
    expect(a.pool.state).toBe('ready');
    const b = start();
    b.workers[0].reply({ type: 'ready', ok: false, why: 'no 2D context on an OffscreenCanvas' });
    await b.pool.settled;
    expect(b.pool.state).toBe('failed');
  });
});
