import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HAS_SHARED, shared } from '../../../../test/shared';
import { parseImageHeader } from '../../image/header';
import { MemorySource } from '../../io/fileSource';
import { lintDataset } from '../../lint';
import { tabenchAdapter } from '.';
import { copyTree, editJsonl, expectViewerNumbering, keys, lintAfterCorrections, lintCli, withExifOrientation } from '../../../../test/lintFixtures';

const MINI = () => shared('data', 'tabench-mini');

/** Pixel size of each image of the mini dataset, from its header. */
function imageSizes(): Map<string, { width: number; height: number }> {
  const sizes = new Map<string, { width: number; height: number }>();
  for (const line of readFileSync(join(MINI(), 'TABench-abs.jsonl'), 'utf8').split('\n').filter(Boolean)) {
    const p = (JSON.parse(line) as { image_path: string }).image_path;
    if (!sizes.has(p)) sizes.set(p, parseImageHeader(readFileSync(join(MINI(), p)))!);
  }
  return sizes;
}

/**
 * The mini dataset with one planted defect of every kind TABench has. Each plant is made in both
 * benchmark files (boxes converted to rel1000 as the dataset does: round(v·1000 / size)), except
 * the two that plant a disagreement between them. The mini files have no ids: a query's id is its
 * line number.
 */
function plantedTabench(): string {
  const dir = copyTree(MINI(), ['Poster/Poster_ht0001.jpg']); // image_missing: queries 19, 20, 39, 40
  const sizes = imageSizes();
  for (const space of ['abs', 'rel1000'] as const) {
    editJsonl(join(dir, `TABench-${space}.jsonl`), (row, i) => {
      const line = i + 1;
      const s = sizes.get(row.image_path as string)!;
      const box = (b: number[]) => (space === 'abs' ? b : [b[0], b[1], b[2], b[3]].map((v, k) => Math.round((v * 1000) / (k % 2 === 0 ? s.width : s.height))));
      const gt = row.GT as { bbox: number[]; text: string } | { bbox: number[]; text: string }[];
      const gts = Array.isArray(gt) ? gt : [gt];
      // An R2T question names its box: a planted box is planted in the question too.
      const r2tBox = (b: number[]) => {
        row.bbox = box(b);
        row.question = `What is the text at location [${box(b).join(', ')}]?`;
      };
      if (line === 2) r2tBox([907, 223, 5000, 256]); // query_box_outside (R2T query box)
      if (line === 5) r2tBox([318, 213, 261, 234]); // box_degenerate (R2T)
      if (line === 6) row.bbox = 'the sign'; // instance_dropped: no usable query box
      if (line === 7) row.GT = row.text = ' '; // empty_text (R2T answer)
      if (line === 10) row.GT = row.text = 'USINGER\u0007S'; // text_suspicious: a control character
      if (line === 23) gts[1].bbox = box([1006, 437, 1071, 465]); // duplicate_instance: #1 repeats #0 "3.99"
      if (line === 24) gts[0].bbox = box([-20, 316, 61, 336]); // query_box_outside (T2R GT box)
      if (line === 25) gts[0].bbox = box([91, 264, 8, 285]); // box_degenerate (T2R)
      if (line === 30) {
        gts[0].text = 'OP\uE000N'; // text_suspicious: private use (tofu), in the question too
        row.question = 'Where is "OP\uE000N" located in the image?';
      }
      // question_mismatch: an R2T question naming another box than the line's (query 3), a T2R
      // question asking for another text than the GT's (query 31).
      if (line === 3) row.question = `What is the text at location [${box([613, 1001, 836, 1080]).join(', ')}]?`;
      if (line === 31) row.question = 'Where is "Coffee and Tea" located in the image?';
      // inconsistent_across_spaces: the rel1000 file alone reads 醬 for 酱 (query 11), and moves box 1 of query 33.
      if (space === 'rel1000' && line === 11) row.GT = row.text = '老北京炸醬面';
      if (space === 'rel1000' && line === 33) gts[1].bbox = gts[1].bbox.map((v, k) => (k % 2 === 0 ? v + 50 : v));
    });
  }
  const book = join(dir, 'Book/Book_ht0001.jpg'); // exif_rotated: queries 17, 18, 37, 38
  writeFileSync(book, withExifOrientation(readFileSync(book), 3));
  return dir;
}

describe.skipIf(!HAS_SHARED)('lint on TABench', () => {
  it('finds nothing in the unmodified mini dataset', () => {
    const { report } = lintCli(MINI());
    expect(report).toMatchObject({ benchmark: 'tabench', dataset: { cases: 40, instances: 47 } });
    expect(keys(report)).toEqual([]);
  });

  it('finds every planted defect at its query and box, image findings on every query of the image, and nothing else', async () => {
    const dir = plantedTabench();
    const { report } = lintCli(dir);
    await expectViewerNumbering('tabench', dir, report);
    expect(keys(report)).toEqual([
      '10 / 0 / text_suspicious',
      '11 / 0 / inconsistent_across_spaces',
      '17 / - / exif_rotated',
      '18 / - / exif_rotated',
      '19 / - / image_missing',
      '2 / 0 / query_box_outside',
      '20 / - / image_missing',
      '23 / 1 / duplicate_instance',
      '24 / 0 / query_box_outside',
      '25 / 0 / box_degenerate',
      '3 / 0 / question_mismatch',
      '30 / 0 / text_suspicious',
      '31 / 0 / question_mismatch',
      '33 / 1 / inconsistent_across_spaces',
      '37 / - / exif_rotated',
      '38 / - / exif_rotated',
      '39 / - / image_missing',
      '40 / - / image_missing',
      '5 / 0 / box_degenerate',
      '6 / 0 / instance_dropped',
      '7 / 0 / empty_text',
    ]);
    const d = (c: string, k: string) => report.findings.find((f) => f.case_id === c && f.kind === k)!.detail;
    expect(d('2', 'query_box_outside')).toMatch(/^R2T query box: 2 corners outside the \d+×\d+ image/);
    expect(d('24', 'query_box_outside')).toMatch(/^T2R GT box: 2 corners outside the \d+×\d+ image, the farthest corner 1 \(-20, 316\) by 20 px/);
    expect(d('10', 'text_suspicious')).toMatch(/control character U\+0007 at character 8/);
    expect(d('30', 'text_suspicious')).toMatch(/private-use U\+E000/);
    expect(d('23', 'duplicate_instance')).toMatch(/IoU 0\.96 with instance 0 \(same text "3\.99"\)/);
    expect(d('17', 'exif_rotated')).toMatch(/EXIF orientation 3 \(rotated 180°\): browsers show it turned, pipelines that read the stored pixels .* do not, so/);
    expect(d('3', 'question_mismatch')).toMatch(/^the question asks about \[613, 1001, 836, 1080\] but the line's bbox is \[613, 1001, 836, 1049\]/);
    expect(d('31', 'question_mismatch')).toMatch(/^the question asks for "Coffee and Tea" but GT box 0 is "Coffee & Tea"/);
    expect(d('11', 'inconsistent_across_spaces')).toMatch(/the answer is "老北京炸酱面" in the abs file but "老北京炸醬面" in TABench-rel1000\.jsonl/);
    expect(d('33', 'inconsistent_across_spaces')).toMatch(/^GT box 1 differs: TABench-rel1000\.jsonl has \[\d+, \d+, \d+, \d+\], the abs box \[406, 374, 468, 400\] is/);
  });
});

describe.skipIf(!HAS_SHARED)('the TABench fix loop', () => {
  it('drops the findings the corrections fix, on the corrected GT and on its exported benchmark files', async () => {
    const { after, exported } = await lintAfterCorrections('tabench', plantedTabench(), [
      { case_id: '2', gt_id: 0, shape: { type: 'box', box: [907, 223, 1081, 256] } },
      { case_id: '5', gt_id: 0, shape: { type: 'box', box: [261, 213, 318, 234] } },
      { case_id: '6', gt_id: 0, shape: { type: 'box', box: [377, 115, 465, 131] } },
      { case_id: '7', gt_id: 0, text: 'HarbourFront' },
      { case_id: '10', gt_id: 0, text: "USINGER'S" },
      { case_id: '23', gt_id: 1, deleted: true },
      { case_id: '24', gt_id: 0, shape: { type: 'box', box: [8, 316, 61, 336] } },
      { case_id: '25', gt_id: 0, shape: { type: 'box', box: [8, 264, 91, 285] } },
      { case_id: '30', gt_id: 0, text: 'OPEN' },
      { case_id: '11', gt_id: 0, text: '老北京炸酱面' },
      { case_id: '33', gt_id: 1, shape: { type: 'box', box: [406, 374, 468, 400] } },
      { case_id: '3', gt_id: 0, shape: { type: 'box', box: [613, 1001, 836, 1080] } },
      { case_id: '31', gt_id: 0, text: 'Coffee and Tea' },
    ]);
    const left = ['17', '18', '19', '20', '37', '38', '39', '40'].map((q) => `${q} / - / ${q === '17' || q === '18' || q === '37' || q === '38' ? 'exif_rotated' : 'image_missing'}`);
    // Query 30's GT text fixed to "OPEN": its question still asks for the broken "OP\uE000N" (the
    // export does not rewrite a T2R question), which lint now says.
    left.splice(4, 0, '30 / 0 / question_mismatch');
    expect(keys(after)).toEqual(left);
    expect(keys(exported)).toEqual(left);
  });
});

describe('question_mismatch reads the question as a model sees it', () => {
  it('takes the last [a, b, c, d] of an R2T question and the first "…", “…” or 「…」 of a T2R one', async () => {
    const line = (o: Record<string, unknown>) => JSON.stringify({ image_path: 'x.jpg', category: 'Poster', ...o });
    const abs = [
      line({ task_type: 'R2T', question: 'In [0, 0, 1, 1] terms, what is the text at location [10, 20, 30, 40]?', bbox: [10, 20, 30, 40], GT: 'A' }),
      line({ task_type: 'R2T', question: 'What is the text at location [10, 20, 30, 41]?', bbox: [10, 20, 30, 40], GT: 'A' }),
      line({ task_type: 'T2R', question: '图中“北京”在哪里？', GT: { bbox: [1, 1, 9, 9], text: '北京' } }),
      line({ task_type: 'T2R', question: '图中「南京」在哪里？', GT: { bbox: [1, 1, 9, 9], text: '北京' } }),
      line({ task_type: 'T2R', question: 'Where is the exit sign?', GT: { bbox: [1, 1, 9, 9], text: 'EXIT' } }),
    ].join('\n');
    const src = new MemorySource('t', { 'TABench-abs.jsonl': abs });
    const report = await lintDataset('tabench', await tabenchAdapter.loadDataset(src), src);
    expect(keys(report)).toEqual(['1 / - / image_missing', '2 / - / image_missing', '2 / 0 / question_mismatch', '3 / - / image_missing', '4 / - / image_missing', '4 / 0 / question_mismatch', '5 / - / image_missing']);
  });
});
