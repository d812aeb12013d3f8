/**
 * The worker writes corrected GT in the benchmark's own format: the demo LTB set, one polygon
 * moved, comes back as challenging_*.json files whose instance carries the new polygon in every
 * split, while the unchanged export equals the original shapes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { resetScoringApi, scoringApi } from './scoringApi';

afterEach(() => resetScoringApi());

describe('exportGroundTruth', () => {
  it('writes the LTB split files with a corrected polygon, leaving the original dataset as it was', async () => {
    const opened = await scoringApi.openDataset({ demo: 'ltb' });
    await scoringApi.score(opened.protocol.name, opened.protocol.options);
    const plain = await scoringApi.exportGroundTruth([]);
    const splitFiles = Object.keys(plain).filter((p) => /challenging_[a-z_]+\.json$/.test(p));
    expect(splitFiles.length).toBe(15);
    const norm = JSON.parse(plain[splitFiles.find((p) => p.endsWith('challenging_norm.json'))!]);
    const entry = norm.data_list[0];
    const moved = [1, 1, 41, 1, 41, 21, 1, 21];
    const corrected = await scoringApi.exportGroundTruth([
      { case_id: entry.img_path, gt_id: 0, shape: { type: 'polygon', points: moved } },
    ]);
    for (const path of splitFiles) {
      const first = JSON.parse(corrected[path]).data_list.find((d: { img_path: string }) => d.img_path === entry.img_path);
      expect(first.instances[0].polygon, path).toEqual(moved);
    }
    // The open dataset is untouched: exporting again without corrections gives the original text.
    expect(await scoringApi.exportGroundTruth([])).toEqual(plain);
  });

  it('says so when a benchmark cannot write its GT back', async () => {
    await scoringApi.openDataset({ demo: 'pulsebench-select' });
    await expect(scoringApi.exportGroundTruth([])).rejects.toThrow(/cannot export ground truth/);
  });
});
