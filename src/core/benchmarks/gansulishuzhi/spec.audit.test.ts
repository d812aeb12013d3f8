/**
 * Independent audit of gansulishuzhi.md: every expected value is worked out by hand from the
 * spec text (arithmetic in the comments), on tiny in-memory pages driven through BenchSession.
 */
import { describe, expect, it } from 'vitest';
import { MemorySource } from '../../io/fileSource';
import type { ModelResult } from '../../model';
import { BenchSession } from '../../session';

const pad = (n: number) => String(n).padStart(3, '0');
const page = (n: number, gt: number[][], extra: Record<string, unknown> = {}) => ({
  id: `page_${pad(n)}`,
  page: n,
  image_path: `pages/page_${pad(n)}.png`,
  image_size_px: [1395, 2037],
  gt_bboxes: gt,
  ...extra,
});
const jsonl = (rows: unknown[]) => rows.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n') + '\n';

async function run(pages: unknown[], lines: unknown[], options: Record<string, string> = {}): Promise<ModelResult> {
  const s = await BenchSession.open(new MemorySource('g', { 'manifest.jsonl': jsonl(pages), 'pages/page_001.png': new Uint8Array(8) }));
  await s.addPredictions({ source: new MemorySource('r', { 'run.jsonl': jsonl(lines) }), path: 'run.jsonl', name: 'run' });
  const [r] = await s.score(s.resolveProtocol(undefined, options));
  return r;
}

/** Boxes read from one page's answer, and whether the case carries unparseable_output. */
async function read(value: unknown, field = 'response') {
  const r = await run([page(1, [[0, 0, 100, 100]])], [{ id: 'page_001', [field]: value }]);
  const c = r.cases[0];
  return { boxes: c.pred.map((p) => (p.shape?.type === 'box' ? p.shape.box : null)), unparseable: c.errors.includes('unparseable_output'), r };
}

const G = [0, 0, 100, 100];

describe('audit: output field and raw strings', () => {
  it('takes the first present field in the spec order', async () => {
    // pred_bboxes before bboxes before boxes before prediction before output before response.
    const line = { id: 'page_001', response: '[[0, 0, 1, 1]]', output: [[0, 0, 2, 2]], boxes: [[0, 0, 100, 100]], prediction: [[0, 0, 3, 3]] };
    const r = await run([page(1, [G])], [line]);
    expect(r.cases[0].pred.map((p) => p.shape)).toEqual([{ type: 'box', box: [0, 0, 100, 100] }]);
    expect(r.metrics['iou0.7/tp']).toBe(1);
  });
  it('strips think blocks (closed, stray </think>, unclosed) and a surrounding fence', async () => {
    // "<think>a</think>b</think>\n```json\n[[1,2,3,4]]\n```\n<think>c": closed block goes, keep after
    // the last </think>, drop the unclosed tail, then the fence → [[1,2,3,4]].
    expect((await read('<think>a</think>b</think>\n```json\n[[1, 2, 3, 4]]\n```\n<think>c')).boxes).toEqual([[1, 2, 3, 4]]);
  });
});

describe('audit: accepted JSON shapes', () => {
  it('a bare 4-number list is one box; a list of 4-number lists; bbox / bbox_2d objects anywhere in a list', async () => {
    expect((await read('[1, 2, 3, 4]')).boxes).toEqual([[1, 2, 3, 4]]);
    expect((await read('[[1, 2, 3, 4], {"bbox_2d": [5, 6, 7, 8]}, {"bbox": [9, 10, 11, 12]}]')).boxes).toEqual([
      [1, 2, 3, 4],
      [5, 6, 7, 8],
      [9, 10, 11, 12],
    ]);
  });
  it('JSON of another shape: zero boxes, unparseable_output, no bracket scan', async () => {
    expect(await read('{"figures": [[1, 2, 3, 4]]}')).toMatchObject({ boxes: [], unparseable: true });
    // A top-level object is not among the accepted shapes (only objects in a list are).
    expect(await read('{"bbox_2d": [1, 2, 3, 4]}')).toMatchObject({ boxes: [], unparseable: true });
    // A JSON string holding a list is valid JSON of another shape: not scanned.
    expect(await read('"[[1, 2, 3, 4]]"')).toMatchObject({ boxes: [], unparseable: true });
    // Unparseable output still joins the page: pred 0, the GT box an FN at every T.
    const r = (await read('{"figures": []}')).r;
    expect([r.metrics.pred, r.metrics['iou0.3/fn'], r.metrics.pages]).toEqual([0, 1, 1]);
  });
  it('[] (raw or structured) is a valid empty answer', async () => {
    expect(await read('```json\n[]\n```')).toMatchObject({ boxes: [], unparseable: false });
    expect(await read([], 'pred_bboxes')).toMatchObject({ boxes: [], unparseable: false });
  });
});

describe('audit: prose fallback', () => {
  it('takes, from the first [ that works, the shortest span parsing as a list of 4-number lists', async () => {
    // "[1]" parses but is no list of boxes; "[10,20,30,40]" alone gives nothing; then the list.
    expect((await read('图[1]在 [10, 20, 30, 40] 以及 [[1, 2, 3, 4], [5, 6, 7, 8]] 和 [[9, 9, 9, 9]]')).boxes).toEqual([
      [1, 2, 3, 4],
      [5, 6, 7, 8],
    ]);
    expect(await read('the figure is at [10, 20, 30, 40].')).toMatchObject({ boxes: [], unparseable: true });
    // "[]" in prose is a valid empty answer (an empty list is a list of 4-number lists).
    expect(await read('没有图 [] 。')).toMatchObject({ boxes: [], unparseable: false });
    // A list holding a 5-number list is not a list of 4-number lists.
    expect(await read('boxes: [[1, 2, 3, 4, 5]]')).toMatchObject({ boxes: [], unparseable: true });
  });
});

describe('audit: coordinates', () => {
  it('rel1000: x·w/1000, y·h/1000 with image_size_px, no rounding; a line\'s coords beats the option', async () => {
    // w = 1395, h = 2037: [333, 111, 667, 999] → [464.535, 226.107, 930.465, 2034.963].
    const rel = [333, 111, 667, 999];
    const px = [(333 * 1395) / 1000, (111 * 2037) / 1000, (667 * 1395) / 1000, (999 * 2037) / 1000];
    const p1 = page(1, [px]);
    let r = await run([p1], [{ id: 'page_001', pred_bboxes: [rel], coords: 'rel1000' }]);
    expect(r.cases[0].pred[0].shape).toEqual({ type: 'box', box: px });
    expect(r.metrics.mean_iou).toBe(1);
    // The option rel1000 is overridden by a line's own coords "abs".
    r = await run([p1], [{ id: 'page_001', pred_bboxes: [px], coords: 'abs' }], { coords: 'rel1000' });
    expect(r.metrics.mean_iou).toBe(1);
    // The option applies to a line without coords.
    r = await run([p1], [{ id: 'page_001', pred_bboxes: [rel] }], { coords: 'rel1000' });
    expect(r.metrics.mean_iou).toBe(1);
  });
  it('does not swap corners: a reversed box has zero area and IoU 0', async () => {
    const r = await run([page(1, [G])], [{ id: 'page_001', pred_bboxes: [[100, 0, 0, 100]] }]);
    expect([r.metrics['iou0.3/tp'], r.metrics['iou0.3/fp'], r.metrics['iou0.3/fn'], r.metrics.mean_iou]).toEqual([0, 1, 1, 0]);
  });
});

describe('audit: matching and pooled metrics', () => {
  it('greedy max-IoU once with IoU > 0, TP at IoU ≥ T, means over pairs and TPs, counts', async () => {
    // Page 1: GT A [0,0,100,100]; preds [0,0,100,40] (IoU 0.4) and [200,200,300,300] (IoU 0).
    //   Pairs: A–p0 at 0.4 (p1 overlaps nothing, no pair).
    // Page 2: GT B [0,0,100,100], C [200,0,300,100]; pred [0,0,100,80] (IoU 0.8 with B).
    //   Pairs: B–p0 at 0.8; C unmatched.
    // Page 3: no GT, no line (missing). Page 4: GT D [0,0,10,10], line with [].
    // Pairs: 0.4, 0.8 → mean_iou 0.6. pred = 2 + 1 + 0 = 3; gt = 1 + 2 + 0 + 1 = 4; pages 4.
    // T=0.3: tp 2, fp 1, fn 2 → P 2/3, R 1/2, F1 = 2·(2/3)(1/2)/(2/3 + 1/2) = 4/7; mean over TPs 0.6.
    // T=0.5: tp 1 (0.8), fp 2, fn 3 → P 1/3, R 1/4, F1 = 2·(1/12)/(7/12) = 2/7; mean 0.8.
    // T=0.7: same as 0.5. 
    const r = await run(
      [page(1, [G]), page(2, [G, [200, 0, 300, 100]]), page(3, []), page(4, [[0, 0, 10, 10]])],
      [
        { id: 'page_001', pred_bboxes: [[0, 0, 100, 40], [200, 200, 300, 300]] },
        { id: 'page_002', pred_bboxes: [[0, 0, 100, 80]] },
        { id: 'page_004', pred_bboxes: [] },
      ],
    );
    const m = r.metrics;
    expect([m.pages, m.gt, m.pred]).toEqual([4, 4, 3]);
    expect(m.mean_iou).toBeCloseTo(0.6, 15);
    expect([m['iou0.3/tp'], m['iou0.3/fp'], m['iou0.3/fn']]).toEqual([2, 1, 2]);
    expect(m['iou0.3/precision']).toBeCloseTo(2 / 3, 15);
    expect(m['iou0.3/recall']).toBe(0.5);
    expect(m['iou0.3/f1']).toBeCloseTo(4 / 7, 15);
    expect(m['iou0.3/mean_iou']).toBeCloseTo(0.6, 15);
    for (const t of ['0.5', '0.7']) {
      expect([m[`iou${t}/tp`], m[`iou${t}/fp`], m[`iou${t}/fn`]]).toEqual([1, 2, 3]);
      expect(m[`iou${t}/precision`]).toBeCloseTo(1 / 3, 15);
      expect(m[`iou${t}/recall`]).toBe(0.25);
      expect(m[`iou${t}/f1`]).toBeCloseTo(2 / 7, 15);
      expect(m[`iou${t}/mean_iou`]).toBeCloseTo(0.8, 15);
    }
  });
  it('breaks IoU ties GT-major, then by prediction order', async () => {
    // Two identical GT boxes, two identical predictions: GT0–p0 then GT1–p1.
    const r = await run([page(1, [G, G])], [{ id: 'page_001', pred_bboxes: [G, G] }]);
    expect(r.cases[0].matches.map((x) => [x.gt, x.pred])).toEqual([
      [0, 0],
      [1, 1],
    ]);
  });
  it('rates and means over nothing are 0', async () => {
    // No GT and no prediction anywhere: P, R, F1, means all 0.
    const r = await run([page(1, [])], [{ id: 'page_001', pred_bboxes: [] }]);
    for (const k of ['iou0.5/precision', 'iou0.5/recall', 'iou0.5/f1', 'iou0.5/mean_iou', 'mean_iou']) expect(r.metrics[k]).toBe(0);
  });
});

describe('audit: joins', () => {
  it('by id, then exact image_path, then file name; first line wins; unknown pages are warnings', async () => {
    // L1 id unknown but image_path exact → page 1 (TP). L2 image_path by file name → page 2 (TP).
    // L3 second line for page 1 → ignored. L4 unknown page. Page 3 missing → its GT an FN.
    // pred counts joined winners only: 1 + 1 = 2; tp 2, fn 1 → recall 2/3.
    const r = await run(
      [page(1, [G]), page(2, [G]), page(3, [G])],
      [
        { id: 'zzz', image_path: 'pages/page_001.png', pred_bboxes: [G] },
        { image_path: 'elsewhere/page_002.png', pred_bboxes: [G] },
        { id: 'page_001', pred_bboxes: [G, G, G] },
        { id: 'page_404', pred_bboxes: [G] },
      ],
    );
    expect([r.metrics.pred, r.metrics['iou0.5/tp'], r.metrics['iou0.5/fn']]).toEqual([2, 2, 1]);
    expect(r.metrics['iou0.5/recall']).toBeCloseTo(2 / 3, 15);
    expect(r.counts).toMatchObject({ duplicate_lines: 1, unknown_lines: 1, missing_pages: 1 });
  });
});
