import { describe, expect, it } from 'vitest';
import { MemorySource } from '../../io/fileSource';
import { BenchSession } from '../../session';
import type { GansuDataset } from './dataset';
import { gansulishuzhiAdapter } from './index';

const manifest =
  '{"id": "page_001", "page": 1, "image_path": "pages/page_001.png", "image_size_px": [200, 400], "gt_bboxes": [[0, 0, 100, 100], [0, 200, 100, 300]]}\n' +
  '{"id": "page_002", "page": 2, "image_path": "pages/page_002.png", "image_size_px": [200, 400], "gt_bboxes": []}\n';

describe('gansulishuzhi GT corrections and export', () => {
  it('moves, adds and deletes boxes on a copy and writes them to manifest.jsonl', async () => {
    const s = await BenchSession.open(new MemorySource('g', { 'manifest.jsonl': manifest, 'pages/page_001.png': new Uint8Array(4) }));
    const ds = s.dataset as GansuDataset;
    expect(gansulishuzhiAdapter.exportGroundTruth!(ds)).toEqual({ 'manifest.jsonl': manifest });
    const fixed = gansulishuzhiAdapter.applyCorrections!(ds, [
      { case_id: 'page_001', gt_id: 0, deleted: true },
      { case_id: 'page_001', gt_id: 1, shape: { type: 'box', box: [0, 210, 100, 310] } },
      { case_id: 'page_002', gt_id: null, shape: { type: 'box', box: [10, 10, 50, 50] } },
    ]);
    expect(ds.pages[0].gt).toHaveLength(2);
    const lines = gansulishuzhiAdapter.exportGroundTruth!(fixed)['manifest.jsonl'].trim().split('\n').map((l) => JSON.parse(l));
    expect(lines[0].gt_bboxes).toEqual([[0, 210, 100, 310]]);
    expect(lines[1].gt_bboxes).toEqual([[10, 10, 50, 50]]);

    await s.addPredictions({
      source: new MemorySource('r', { 'run.jsonl': '{"id": "page_001", "pred_bboxes": [[0, 210, 100, 310]]}\n{"id": "page_002", "pred_bboxes": [[10, 10, 50, 50]]}\n' }),
      path: 'run.jsonl',
      name: 'run',
    });
    const protocol = s.resolveProtocol();
    const [before] = await s.score(protocol);
    const [after] = await s.score(protocol, undefined, undefined, fixed);
    expect(before.metrics['iou0.7/f1']).toBeLessThan(1);
    expect(after.metrics['iou0.7/f1']).toBe(1);
  });
});
