/** Sharp edges of gansulishuzhi.md on tiny in-memory pages, through BenchSession. */
import { describe, expect, it } from 'vitest';
import { MemorySource } from '../../io/fileSource';
import { InputError, type ModelResult } from '../../model';
import { BenchSession } from '../../session';

const page = (n: number, gt: number[][], extra: Record<string, unknown> = {}) => ({
  id: `page_${String(n).padStart(3, '0')}`,
  page: n,
  image_path: `pages/page_${String(n).padStart(3, '0')}.png`,
  image_size_px: [200, 400],
  gt_bboxes: gt,
  ...extra,
});
const jsonl = (rows: unknown[]) => rows.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n') + '\n';

async function run(pages: unknown[], lines: unknown[], options: Record<string, string> = {}): Promise<ModelResult> {
  const s = await BenchSession.open(new MemorySource('g', { 'manifest.jsonl': jsonl(pages), 'pages/page_001.png': new Uint8Array(8) }));
  expect(s.adapter.id).toBe('gansulishuzhi');
  await s.addPredictions({ source: new MemorySource('r', { 'run.jsonl': jsonl(lines) }), path: 'run.jsonl', name: 'run' });
  const [r] = await s.score(s.resolveProtocol(undefined, options));
  return r;
}

const G = [0, 0, 100, 100];

describe('gansulishuzhi thresholds', () => {
  it('counts a pair at IoU exactly 0.3, 0.5 and 0.7 as a TP at that threshold', async () => {
    for (const [h, at] of [
      [30, 0.3],
      [50, 0.5],
      [70, 0.7],
    ] as const) {
      const r = await run([page(1, [G])], [{ id: 'page_001', pred_bboxes: [[0, 0, 100, h]] }]);
      for (const t of [0.3, 0.5, 0.7]) expect(r.metrics[`iou${t}/tp`], `IoU ${h / 100} at ${t}`).toBe(t <= at ? 1 : 0);
      expect(r.metrics.mean_iou).toBe(h / 100);
    }
  });
  it('matches once (IoU > 0, greedy) and applies thresholds afterwards', async () => {
    // p0 overlaps G0 best (0.667) and G1 (0.25); p1 overlaps only G0 (0.333). Greedy gives p0 to
    // G0 and leaves p1 and G1 alone, though p0–G1 and p1–G0 would make two pairs.
    const r = await run(
      [page(1, [[0, 0, 10, 10], [8, 0, 18, 10]])],
      [{ id: 'page_001', pred_bboxes: [[2, 0, 12, 10], [-5, 0, 5, 10]] }],
    );
    expect([r.metrics['iou0.3/tp'], r.metrics['iou0.3/fp'], r.metrics['iou0.3/fn']]).toEqual([1, 1, 1]);
    expect(r.metrics.mean_iou).toBeCloseTo(80 / 120, 12);
    expect(r.cases[0].pred[1].reason).toBe('duplicate: the figure it overlaps was matched to another prediction');
    expect(r.cases[0].outcome).toBe('partial');
  });
  it('keeps a low-IoU pair matched: a TP at 0.3 only, an FP and FN at 0.5, with the mean over all pairs', async () => {
    const r = await run([page(1, [G])], [{ id: 'page_001', pred_bboxes: [[0, 0, 100, 40]] }]);
    expect(r.metrics['iou0.3/tp']).toBe(1);
    expect([r.metrics['iou0.5/tp'], r.metrics['iou0.5/fp'], r.metrics['iou0.5/fn']]).toEqual([0, 1, 1]);
    expect(r.metrics['iou0.5/mean_iou']).toBe(0);
    expect(r.metrics['iou0.3/mean_iou']).toBeCloseTo(0.4, 12);
    expect(r.cases[0].pred[0]).toMatchObject({ state: 'fp', reason: 'IoU 0.40 < 0.5 with GT 0 (a TP at 0.3)' });
    expect(r.cases[0].matches).toEqual([{ gt: 0, pred: 0, iou: 0.4, tp_at: [0.3] }]);
  });
  it('does not swap corners: a reversed box has zero area and IoU 0', async () => {
    const r = await run([page(1, [G])], [{ id: 'page_001', pred_bboxes: [[100, 100, 0, 0]] }]);
    expect(r.metrics['iou0.3/tp']).toBe(0);
    expect(r.metrics.pred).toBe(1);
  });
  it('scales rel1000 boxes by image_size_px, a line’s own coords beating the option', async () => {
    const pages = [page(1, [[0, 0, 100, 200]]), page(2, [[0, 0, 100, 200]])];
    const lines = [
      { id: 'page_001', pred_bboxes: [[0, 0, 500, 500]], coords: 'rel1000' },
      { id: 'page_002', pred_bboxes: [[0, 0, 500, 500]] },
    ];
    let r = await run(pages, lines);
    expect(r.metrics['iou0.7/tp']).toBe(1); // page 2 read as pixels: IoU 0.08
    r = await run(pages, lines, { coords: 'rel1000' });
    expect(r.metrics['iou0.7/tp']).toBe(2);
    expect(r.cases[1].pred[0].shape).toEqual({ type: 'box', box: [0, 0, 100, 200] });
  });
});

describe('gansulishuzhi runs', () => {
  it('joins by id, then image_path, then file name; the first line for a page wins', async () => {
    const r = await run(
      [page(1, [G]), page(2, [G]), page(3, [G])],
      [
        { id: 'nope', image_path: 'pages/page_001.png', pred_bboxes: [G] },
        { image_path: '/elsewhere/page_002.png', pred_bboxes: [G] },
        { id: 'page_001', pred_bboxes: [] },
        { id: 'page_099', pred_bboxes: [] },
      ],
    );
    expect(r.metrics['iou0.5/tp']).toBe(2);
    expect(r.counts).toMatchObject({ missing_pages: 1, duplicate_lines: 1, unknown_lines: 1 });
    expect(r.warnings).toEqual(['line 3: second prediction for page page_001 ignored', 'line 4: unknown page']);
  });
  it('scores an empty page with no prediction as a pass and FPs on it as a fail', async () => {
    const r = await run([page(1, []), page(2, [])], [{ id: 'page_001', pred_bboxes: [] }, { id: 'page_002', pred_bboxes: [G] }]);
    expect(r.cases.map((c) => c.outcome)).toEqual(['pass', 'fail']);
    expect(r.metrics['iou0.5/precision']).toBe(0);
    expect(r.metrics['iou0.5/recall']).toBe(0);
    expect(r.metrics.mean_iou).toBe(0);
  });
  it('counts malformed lines and lists them', async () => {
    const r = await run([page(1, [G])], ['{"id": "page_001", "pred', { id: 'page_001', pred_bboxes: [G] }]);
    expect(r.counts.malformed_lines).toBe(1);
    expect(r.warnings).toEqual(['line 1: not valid JSON']);
    expect(r.metrics['iou0.5/tp']).toBe(1);
  });
  it('rejects a run for another benchmark with an InputError naming the file', async () => {
    const bad = run([page(1, [G])], [{ image_path: 'Receipt/x.jpg', task_type: 'R2T', prediction: 'A' }]);
    await expect(bad).rejects.toThrow(InputError);
    await expect(bad).rejects.toThrow(/run\.jsonl/);
  });
});
