/** GT suspects (errors.md "GT suspects") across models, on tiny in-memory datasets through BenchSession. */
import { describe, expect, it } from 'vitest';
import { MemorySource } from '../io/fileSource';
import { BenchSession } from '../session';

const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
const page = (n: number, gt: number[][]) => ({
  id: `page_00${n}`,
  page: n,
  image_path: `pages/page_00${n}.png`,
  image_size_px: [1000, 1000],
  gt_bboxes: gt,
});

async function gansu(runs: Record<string, { id: string; pred_bboxes: number[][] }[]>) {
  const s = await BenchSession.open(new MemorySource('g', { 'manifest.jsonl': jsonl([page(1, [[0, 0, 100, 100], [500, 500, 600, 600]]), page(2, [[0, 0, 50, 50]])]) }));
  for (const [name, lines] of Object.entries(runs)) {
    await s.addPredictions({ source: new MemorySource(name, { [`${name}.jsonl`]: jsonl(lines) }), path: `${name}.jsonl`, name });
  }
  const p = s.resolveProtocol();
  return s.report(p, await s.score(p));
}

describe('GT suspects', () => {
  it('missing_gt: background FPs of two models overlapping at IoU > 0.5 (here 90/110 = 0.82), one entry naming both', async () => {
    const report = await gansu({
      a: [{ id: 'page_001', pred_bboxes: [[0, 0, 100, 100], [300, 0, 310, 100]] }],
      // b's FP [301,0,311,100] vs a's [300,0,310,100]: inter 9×100, union 11×100 → 0.82
      b: [{ id: 'page_001', pred_bboxes: [[0, 0, 100, 100], [301, 0, 311, 100], [800, 800, 900, 900]] }],
    });
    const missing = report.diagnostics!.suspects.filter((x) => x.kind === 'missing_gt');
    expect(missing).toEqual([{ kind: 'missing_gt', case_id: 'page_001', pred: { a: 1, b: 1 } }]);
  });

  it('missing_gt needs the overlap: two background FPs at IoU 1/19 = 0.05 are no suspect', async () => {
    const report = await gansu({
      a: [{ id: 'page_001', pred_bboxes: [[300, 0, 310, 100]] }],
      b: [{ id: 'page_001', pred_bboxes: [[309, 0, 319, 100]] }],
    });
    expect(report.diagnostics!.suspects.filter((x) => x.kind === 'missing_gt')).toEqual([]);
  });

  it('wrong_gt: a GT every model misses with nothing within IoU 0.1; a GT only one model misses is no suspect', async () => {
    const report = await gansu({
      // page 1: GT0 found by both, GT1 [500,500,600,600] missed by both; page 2: GT missed by a only.
      a: [{ id: 'page_001', pred_bboxes: [[0, 0, 100, 100]] }],
      b: [
        { id: 'page_001', pred_bboxes: [[0, 0, 100, 100]] },
        { id: 'page_002', pred_bboxes: [[0, 0, 50, 50]] },
      ],
    });
    expect(report.diagnostics!.suspects.filter((x) => x.kind === 'wrong_gt')).toEqual([{ kind: 'wrong_gt', case_id: 'page_001', gt: 1 }]);
  });

  it('a GT one model has as localization (IoU 0.33) is not a wrong_gt suspect', async () => {
    const report = await gansu({
      a: [{ id: 'page_001', pred_bboxes: [[0, 0, 100, 100]] }],
      b: [{ id: 'page_001', pred_bboxes: [[0, 0, 100, 100], [550, 500, 650, 600]] }],
    });
    expect(report.diagnostics!.suspects.filter((x) => x.kind === 'wrong_gt' && x.gt === 1)).toEqual([]);
  });

  it('with one model: its background FPs with score ≥ 0.5, highest score first (LTB)', async () => {
    const poly = (x: number) => [x, 0, x + 10, 0, x + 10, 10, x, 10];
    const files: Record<string, string | Uint8Array> = { 'anno/hard/images/a.jpg': new Uint8Array([1]) };
    const data_list = [{ img_path: 'a.jpg', height: 100, width: 200, instances: [{ polygon: poly(0), bbox: [0, 0, 10, 10], bbox_label: 0, ignore: false }] }];
    files['anno/mmocr1.x_format/challenging_norm.json'] = JSON.stringify({ metainfo: {}, data_list });
    const s = await BenchSession.open(new MemorySource('ltb', files));
    const preds = { 'a.jpg': [[...poly(0), 0.9], [...poly(100), 0.6], [...poly(150), 0.95], [...poly(50), 0.45]] };
    await s.addPredictions({ source: new MemorySource('p', { 'm.json': JSON.stringify(preds) }), path: 'm.json', name: 'm' });
    // One pinned threshold 0.3 (all four take part): three background FPs; the one at 0.45 is under 0.5.
    const p = s.resolveProtocol(undefined, { score_thr: '0.3' });
    const results = await s.score(p);
    expect(results[0].diagnostics!.errors.norm.fp).toEqual({ background: 3 });
    expect(s.report(p, results).diagnostics!.suspects).toEqual([
      { kind: 'missing_gt', case_id: 'a.jpg', pred: { m: 2 }, score: 0.95 },
      { kind: 'missing_gt', case_id: 'a.jpg', pred: { m: 1 }, score: 0.6 },
    ]);
  });
});
