import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HAS_SHARED, shared } from '../../../../test/shared';
import { copyTree, editJsonl, expectViewerNumbering, keys, lintAfterCorrections, lintCli, withExifOrientation } from '../../../../test/lintFixtures';

const MINI = () => shared('data', 'chronicles-mini');

type Item = Record<string, unknown>;

/** The mini dataset with one planted defect of every kind Chronicles-OCR has. */
function plantedChronicles(): string {
  const dir = copyTree(MINI(), ['data/images/隶书/cl_002.jpg']); // image_missing (a modern row: its #classification and #parsing cases)
  editJsonl(join(dir, 'data/Chronicles_OCR.jsonl'), (row) => {
    const sp = row.spotting as Item[];
    switch (row.image_path) {
      case 'images/甲骨文/ob_002.png':
        sp[3].bbox = { x1: 250, y1: 299, x2: 111, y2: 482 }; // box_degenerate: dropped, so a whole-case finding
        row.width = 520; // image_size_mismatch: the PNG is 500 wide
        break;
      case 'images/金文/br_002.png':
        sp[3].bbox = null; // instance_dropped: no bbox
        break;
      case 'images/篆书/se_003.png':
        (sp[0].bbox as Item).x2 = 620; // out_of_image: 20 px past the 600-wide image
        break;
      case 'images/金文/br_001.png':
        sp.push({ bbox: { x1: 422, y1: 35, x2: 527, y2: 155 }, text: '子' }); // duplicate_instance: #7 repeats #0
        break;
      case 'images/金文/br_003.png':
        sp[1].text = ' '; // empty_text
        break;
      case 'images/甲骨文/ob_003.png':
        sp[2].modern_char = '犬'; // spotting_text_mismatch: the annotation says 大
        break;
      case 'images/楷书/re_001.jpg':
        row.annotation = '九成宫\uFFFD泉铭'; // text_suspicious, on the #parsing case's GT 0
        break;
      case 'images/楷书/re_002.jpg':
        row.annotation = ' '; // empty_text, on the #parsing case's GT 0
        break;
    }
  });
  const ru = join(dir, 'data/images/行书/ru_001.jpg'); // exif_rotated
  writeFileSync(ru, withExifOrientation(readFileSync(ru), 8));
  return dir;
}

describe.skipIf(!HAS_SHARED)('lint on Chronicles-OCR', () => {
  it('finds nothing in the unmodified mini dataset', () => {
    const { report } = lintCli(MINI());
    expect(report).toMatchObject({ benchmark: 'chronicles', dataset: { cases: 60, instances: 93 } });
    expect(keys(report)).toEqual([]);
  });

  it('finds every planted defect at its case and character, and nothing else', async () => {
    const dir = plantedChronicles();
    const { report } = lintCli(dir);
    await expectViewerNumbering('chronicles', dir, report);
    expect(keys(report)).toEqual([
      'images/楷书/re_001.jpg#parsing / 0 / text_suspicious',
      'images/楷书/re_002.jpg#parsing / 0 / empty_text',
      'images/甲骨文/ob_002.png#spotting / - / box_degenerate',
      'images/甲骨文/ob_002.png#spotting / - / image_size_mismatch',
      'images/甲骨文/ob_003.png#spotting / 2 / spotting_text_mismatch',
      'images/篆书/se_003.png#spotting / 0 / out_of_image',
      'images/行书/ru_001.jpg#classification / - / exif_rotated',
      'images/行书/ru_001.jpg#parsing / - / exif_rotated',
      'images/金文/br_001.png#spotting / 7 / duplicate_instance',
      'images/金文/br_002.png#spotting / - / instance_dropped',
      'images/金文/br_003.png#spotting / 1 / empty_text',
      'images/隶书/cl_002.jpg#classification / - / image_missing',
      'images/隶书/cl_002.jpg#parsing / - / image_missing',
    ]);
    expect(report.dataset).toEqual({ cases: 60, instances: 92 });
    const d = (k: string) => report.findings.find((f) => f.kind === k)!.detail;
    expect(d('box_degenerate')).toMatch(/^spotting\[3\] box \[250, 299, 111, 482\] is empty/);
    expect(d('instance_dropped')).toMatch(/^spotting\[3\] has no bbox/);
    expect(d('spotting_text_mismatch')).toMatch(/"犬" does not occur in the row's annotation "□□大雨"/);
    expect(d('image_size_mismatch')).toMatch(/width\/height is 520×640 but data\/images\/甲骨文\/ob_002\.png is 500×640/);
    expect(d('out_of_image')).toMatch(/the farthest corner 2 \(620, 54\) by 20 px/);
  });
});

describe.skipIf(!HAS_SHARED)('the Chronicles-OCR fix loop', () => {
  it('drops the findings the corrections fix, on the corrected GT and on its exported Chronicles_OCR.jsonl', async () => {
    const { after, exported } = await lintAfterCorrections('chronicles', plantedChronicles(), [
      { case_id: 'images/篆书/se_003.png#spotting', gt_id: 0, shape: { type: 'box', box: [450, 54, 550, 259] } },
      { case_id: 'images/金文/br_001.png#spotting', gt_id: 7, deleted: true },
      { case_id: 'images/金文/br_003.png#spotting', gt_id: 1, text: '宝' },
      { case_id: 'images/甲骨文/ob_003.png#spotting', gt_id: 2, text: '大' },
      { case_id: 'images/楷书/re_001.jpg#parsing', gt_id: 0, text: '九成宫醴泉铭' },
      { case_id: 'images/楷书/re_002.jpg#parsing', gt_id: 0, text: '贞观六年孟夏之月' },
    ]);
    // Dropped spotting items have no instance the editor can select: their findings stay until the file is fixed.
    const left = [
      'images/甲骨文/ob_002.png#spotting / - / box_degenerate',
      'images/甲骨文/ob_002.png#spotting / - / image_size_mismatch',
      'images/行书/ru_001.jpg#classification / - / exif_rotated',
      'images/行书/ru_001.jpg#parsing / - / exif_rotated',
      'images/金文/br_002.png#spotting / - / instance_dropped',
      'images/隶书/cl_002.jpg#classification / - / image_missing',
      'images/隶书/cl_002.jpg#parsing / - / image_missing',
    ];
    expect(keys(after)).toEqual(left);
    expect(keys(exported)).toEqual(left);
  });
});
