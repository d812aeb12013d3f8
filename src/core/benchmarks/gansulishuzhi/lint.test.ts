import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { HAS_SHARED, shared } from '../../../../test/shared';
import { readFileSync, writeFileSync } from 'node:fs';
import { copyTree, editJsonl, expectViewerNumbering, keys, lintAfterCorrections, lintCli, withExifOrientation } from '../../../../test/lintFixtures';

const MINI = () => shared('data', 'gansulishuzhi-mini');

/** The mini dataset with one planted defect of every kind gansulishuzhi has (figure boxes in pixels, PNG pages). */
function plantedGansu(): string {
  const dir = copyTree(MINI(), ['pages/page_021.png']); // image_missing: page_021
  editJsonl(join(dir, 'manifest.jsonl'), (row) => {
    const gt = row.gt_bboxes as number[][];
    if (row.id === 'page_003') gt[0] = [578, 300, 120, 640]; // box_degenerate: x2 < x1
    if (row.id === 'page_007') gt[1] = [368, 230, 710, 520]; // out_of_image: 12 px past the 698-wide page
    if (row.id === 'page_014') gt.push([86, 134, 362, 530]); // duplicate_instance: #2 repeats #0, 2 px off
    if (row.id === 'page_030') row.image_size_px = [700, 1019]; // image_size_mismatch: the PNG header says 698
    if (row.id === 'page_045') {
      // exif_rotated: the page scanned as a JPEG (a real 1280 × 720 photo) with EXIF orientation 6.
      row.image_path = 'pages/page_045.jpg';
      row.image_size_px = [1280, 720];
    }
  });
  writeFileSync(join(dir, 'pages/page_045.jpg'), withExifOrientation(readFileSync(shared('data', 'ltb-mini', 'anno/hard/images/img_1.jpg')), 6));
  return dir;
}

describe.skipIf(!HAS_SHARED)('lint on gansulishuzhi', () => {
  it('finds nothing in the unmodified mini dataset', () => {
    const { report } = lintCli(MINI());
    expect(report).toMatchObject({ benchmark: 'gansulishuzhi', dataset: { cases: 8, instances: 11 } });
    expect(keys(report)).toEqual([]);
  });

  it('finds every planted defect at its page and box, and nothing else', async () => {
    const dir = plantedGansu();
    const { report } = lintCli(dir);
    await expectViewerNumbering('gansulishuzhi', dir, report);
    expect(keys(report)).toEqual([
      'page_003 / 0 / box_degenerate',
      'page_007 / 1 / out_of_image',
      'page_014 / 2 / duplicate_instance',
      'page_021 / - / image_missing',
      'page_030 / - / image_size_mismatch',
      'page_045 / - / exif_rotated',
    ]);
    const d = (k: string) => report.findings.find((f) => f.kind === k)!.detail;
    expect(d('box_degenerate')).toMatch(/box \[578, 300, 120, 640\] has x2 ≤ x1: area 0, so it scores IoU 0/);
    expect(d('out_of_image')).toMatch(/2 corners outside the 698×1019 image, the farthest corner 2 \(710, 230\) by 12 px/);
    expect(d('duplicate_instance')).toMatch(/^IoU 0\.9\d with instance 0: annotated twice/);
    expect(d('image_size_mismatch')).toMatch(/image_size_px is 700×1019 but pages\/page_030\.png is 698×1019/);
    expect(report.findings.find((f) => f.kind === 'image_missing')!.severity).toBe('error');
    expect(d('exif_rotated')).toMatch(/pages\/page_045\.jpg carries EXIF orientation 6 .*the annotation's image_size_px 1280×720 is the stored image's/);
  });
});

describe.skipIf(!HAS_SHARED)('the gansulishuzhi fix loop', () => {
  it('drops the findings the corrections fix, on the corrected GT and on its exported manifest', async () => {
    const { after, exported } = await lintAfterCorrections('gansulishuzhi', plantedGansu(), [
      { case_id: 'page_003', gt_id: 0, shape: { type: 'box', box: [120, 300, 578, 640] } },
      { case_id: 'page_014', gt_id: 2, deleted: true },
    ]);
    const left = ['page_007 / 1 / out_of_image', 'page_021 / - / image_missing', 'page_030 / - / image_size_mismatch', 'page_045 / - / exif_rotated'];
    expect(keys(after)).toEqual(left);
    expect(keys(exported)).toEqual(left);
  });
});
