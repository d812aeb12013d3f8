import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HAS_SHARED, shared } from '../../../../test/shared';
import { MemorySource } from '../../io/fileSource';
import { lintDataset } from '../../lint';
import { ltbAdapter } from '.';
import { makeDemo } from './demo';
import { BenchSession } from '../../session';
import { nodeFolderSource } from '../../../../cli/nodeSource';
import { SPLIT_KEYS } from './splits';
import type { LtbDataset } from './dataset';
import { copyTree, editJson, expectViewerNumbering, keys, lintAfterCorrections, lintCli, withExifOrientation } from '../../../../test/lintFixtures';

interface Inst {
  polygon: number[];
  ignore: boolean;
  text?: string;
  bbox?: number[];
}
interface Doc {
  data_list: { img_path: string; width: number; height: number; instances: Inst[] }[];
}

const MINI = () => shared('data', 'ltb-mini');
const ANNO = 'anno/mmocr1.x_format';

/** Applies `edit` to every split file (or only to those whose name contains `only`). */
function everySplit(dir: string, edit: (doc: Doc, file: string) => void, only?: string): void {
  for (const f of readdirSync(join(dir, ANNO))) {
    if (only && !f.includes(only)) continue;
    editJson<Doc>(join(dir, ANNO, f), (d) => edit(d, f));
  }
}

const entry = (d: Doc, img: string) => d.data_list.find((e) => e.img_path === img)!;

/** The mini dataset with one planted defect of every kind LTB has; each plant names where it lands. */
function plantedLtb(): string {
  const dir = copyTree(MINI(), ['anno/hard/images/img_4.jpg']); // image_missing: img_4.jpg
  everySplit(dir, (d) => {
    // polygon_invalid: img_1 #3, the 59×19 rectangle "62-03" with two corners swapped (a bow-tie).
    entry(d, 'img_1.jpg').instances[3].polygon = [492, 151, 551, 151, 492, 170, 551, 170];
    // empty_text: img_1 #1 "[06]" (care); text_suspicious: img_1 #4 "Carpark" with U+FFFD.
    entry(d, 'img_1.jpg').instances[1].text = '  ';
    entry(d, 'img_1.jpg').instances[4].text = 'Car\uFFFDpark';
    // care_unreadable_text (added kind): img_7 #2 "citi" (care) transcribed "###".
    entry(d, 'img_7.jpg').instances[2].text = '###';
    // out_of_image: img_10 #2 "CC22" moved to x 1263–1300 on the 1280-wide image.
    entry(d, 'img_10.jpg').instances[2].polygon = [1263, 145, 1299, 146, 1300, 163, 1266, 163];
    // duplicate_instance: img_2 gets a copy of #0 "EXIT" 1 px to the right, as #2.
    const exit = entry(d, 'img_2.jpg').instances[0];
    entry(d, 'img_2.jpg').instances.push({ ...exit, polygon: exit.polygon.map((v, i) => (i % 2 === 0 ? v + 1 : v)) });
    // unreachable_gt: img_9 gets a don't-care box (#4) around the care word #0 "EXIT".
    entry(d, 'img_9.jpg').instances.push({ polygon: [334, 196, 394, 196, 394, 238, 334, 238], ignore: true, text: '###' });
    // image_size_mismatch: img_8 annotated 1300 wide (the JPEG is 1280).
    entry(d, 'img_8.jpg').width = 1300;
  });
  // inconsistent_across_splits: a text that differs in one file (img_3 #0), a polygon that differs
  // in one file (img_6 #7 moved 30 px down in glass: #7 is missing there, and glass's own copy is
  // a new instance #20 listed only there), an image one file does not list (img_5, in others).
  everySplit(dir, (d) => (entry(d, 'img_3.jpg').instances[0].text = 'fusionopo1is'), 'dense');
  everySplit(dir, (d) => (entry(d, 'img_6.jpg').instances[7].polygon = [641, 486, 693, 484, 693, 497, 641, 499]), 'glass');
  everySplit(dir, (d) => (d.data_list = d.data_list.filter((e) => e.img_path !== 'img_5.jpg')), 'others');
  // exif_rotated: img_7.jpg's real bytes with an EXIF orientation 6 segment.
  const img7 = join(dir, 'anno/hard/images/img_7.jpg');
  writeFileSync(img7, withExifOrientation(readFileSync(img7), 6));
  return dir;
}

describe.skipIf(!HAS_SHARED)('lint on LTB', () => {
  it('finds nothing in the unmodified mini dataset (10 real ICDAR 2015 images, 82 polygons)', () => {
    const { report, stderr } = lintCli(MINI());
    expect(report).toMatchObject({ schema: 'benchlens.lint/1', benchmark: 'ltb', dataset: { cases: 10, instances: 82 } });
    expect(keys(report)).toEqual([]);
    expect(stderr).toMatch(/^LTB GT health: 10 cases, 82 GT instances; 0 finding\(s\)/);
  });

  it('finds every planted defect at its case and instance, and nothing else', async () => {
    const dir = plantedLtb();
    const { report } = lintCli(dir);
    await expectViewerNumbering('ltb', dir, report);
    expect(keys(report)).toEqual([
      'img_1.jpg / 1 / empty_text',
      'img_1.jpg / 3 / polygon_invalid',
      'img_1.jpg / 4 / text_suspicious',
      'img_10.jpg / 2 / out_of_image',
      'img_2.jpg / 2 / duplicate_instance',
      'img_3.jpg / 0 / inconsistent_across_splits',
      'img_4.jpg / - / image_missing',
      'img_5.jpg / - / inconsistent_across_splits',
      'img_6.jpg / 7 / inconsistent_across_splits',
      'img_6.jpg / 20 / inconsistent_across_splits',
      'img_7.jpg / - / exif_rotated',
      'img_7.jpg / 2 / care_unreadable_text',
      'img_8.jpg / - / image_size_mismatch',
      'img_9.jpg / 0 / unreachable_gt',
    ]);
    expect(report.dataset).toEqual({ cases: 10, instances: 85 });
    expect(report.counts).toEqual({
      care_unreadable_text: 1,
      duplicate_instance: 1,
      empty_text: 1,
      exif_rotated: 1,
      image_missing: 1,
      image_size_mismatch: 1,
      inconsistent_across_splits: 4,
      out_of_image: 1,
      polygon_invalid: 1,
      text_suspicious: 1,
      unreachable_gt: 1,
    });
    const at = (c: string, i: number | undefined, k: string) => report.findings.find((f) => f.case_id === c && f.instance === i && f.kind === k)!;
    // A symmetric bow-tie of a 59×19 rectangle: shapely keeps one of its two triangles (a quarter).
    expect(at('img_1.jpg', 3, 'polygon_invalid')).toMatchObject({
      severity: 'error',
      detail: expect.stringMatching(/bow-tie.*to area 280 of 1,121 px².*IoU 0\.25, not a match/),
    });
    expect(at('img_9.jpg', 0, 'unreachable_gt').detail).toMatch(/100\.0% of this care word lies inside don't-care GT 4 in split norm: a detection of it is dropped by the don't-care filter/);
    expect(at('img_8.jpg', undefined, 'image_size_mismatch').detail).toMatch(/1300×720 but .*img_8\.jpg is 1280×720/);
    expect(at('img_7.jpg', undefined, 'exif_rotated').detail).toMatch(/EXIF orientation 6 \(rotated 90° clockwise\): browsers show it turned \(720×1280\), pipelines that read the stored pixels .* do not \(1280×720\)/);
    expect(at('img_3.jpg', 0, 'inconsistent_across_splits').detail).toMatch(/"fusionopolis" here but "fusionopo1is" in challenging_dense\.json/);
    expect(at('img_6.jpg', 7, 'inconsistent_across_splits').detail).toMatch(/in 14 of the 15 split files that list the image; not in challenging_glass\.json/);
    expect(at('img_10.jpg', 2, 'out_of_image').detail).toMatch(/outside the 1280×720 image, the farthest point 3 \(1300, 163\) by 20 px/);
    expect(at('img_2.jpg', 2, 'duplicate_instance').detail).toMatch(/with instance 0 \(same text "EXIT"\)/);
  });
});

describe.skipIf(!HAS_SHARED)('the LTB fix loop', () => {
  it('drops the findings the corrections fix (re-checked on the corrected GT and on its export), keeps the rest', async () => {
    const { before, after, exported, files } = await lintAfterCorrections('ltb', plantedLtb(), [
      { case_id: 'img_1.jpg', gt_id: 3, shape: { type: 'polygon', points: [492, 151, 551, 151, 551, 170, 492, 170] } },
      { case_id: 'img_1.jpg', gt_id: 1, text: '[06]' },
      { case_id: 'img_2.jpg', gt_id: 2, deleted: true },
      { case_id: 'img_3.jpg', gt_id: 0, text: 'fusionopolis' },
      { case_id: 'img_9.jpg', gt_id: 4, deleted: true },
      { case_id: 'img_10.jpg', gt_id: 2, shape: { type: 'polygon', points: [743, 145, 779, 146, 780, 163, 746, 163] } },
      { case_id: 'img_7.jpg', gt_id: 2, care: false },
    ]);
    expect(keys(before)).toHaveLength(14);
    const left = [
      'img_1.jpg / 4 / text_suspicious',
      'img_4.jpg / - / image_missing',
      'img_5.jpg / - / inconsistent_across_splits',
      'img_6.jpg / 7 / inconsistent_across_splits',
      'img_6.jpg / 20 / inconsistent_across_splits',
      'img_7.jpg / - / exif_rotated',
      'img_8.jpg / - / image_size_mismatch',
    ];
    expect(keys(after)).toEqual(left);
    expect(after.dataset).toEqual({ cases: 10, instances: 83 });
    // The corrected GT written as the 15 split files and read back: the same findings.
    expect(Object.keys(files).filter((f) => f.startsWith('anno/mmocr1.x_format/challenging_'))).toHaveLength(15);
    expect(keys(exported)).toEqual(left);
  });
});

describe('lint on one LTB image with 12,000 instances', () => {
  it('compares only neighbours (sweep), and still finds the one duplicate and the one care word inside a don\'t-care box', async () => {
    // A 120 × 100 grid of 8 × 6 px words, 10 px apart, on a 1200 × 1000 image: no two overlap.
    const instances: { polygon: number[]; ignore: boolean; text: string }[] = [];
    for (let r = 0; r < 100; r++)
      for (let c = 0; c < 120; c++) {
        const x = c * 10, y = r * 10;
        instances.push({ polygon: [x, y, x + 8, y, x + 8, y + 6, x, y + 6], ignore: false, text: `w${r}_${c}` });
      }
    instances.push({ ...instances[5000], polygon: instances[5000].polygon.map((v, i) => (i === 2 || i === 4 ? v + 0.2 : v)) }); // #12000 repeats #5000
    instances.push({ polygon: [598, 598, 610, 598, 610, 608, 598, 608], ignore: true, text: '###' }); // #12001 covers #7260 (row 60, col 60)
    const doc = { data_list: [{ img_path: 'big.jpg', width: 1200, height: 1000, instances }] };
    const src = new MemorySource('big', { 'challenging_norm.json': JSON.stringify(doc) });
    const ds = await ltbAdapter.loadDataset(src);
    const report = await lintDataset('ltb', ds, src);
    expect(keys(report)).toEqual(['big.jpg / - / image_missing', 'big.jpg / 7260 / unreachable_gt', 'big.jpg / 12000 / duplicate_instance']);
    expect(report.dataset).toEqual({ cases: 1, instances: 12002 });
  });
});

describe('unreachable_gt agrees with the scorer', () => {
  it('a perfect detector (every care polygon, score 1) misses exactly the words lint calls unreachable, split by split', async () => {
    const demo = await makeDemo();
    const session = await BenchSession.open(demo.source, 'ltb');
    const ds = session.dataset as LtbDataset;
    const report = await lintDataset('ltb', ds, demo.source);
    const unreachable = report.findings.filter((f) => f.kind === 'unreachable_gt');
    expect(unreachable.length).toBeGreaterThan(0);
    const perfect: Record<string, number[][]> = {};
    for (const im of ds.images) perfect[im.name] = im.gt.filter((g) => g.care & g.present).map((g) => [...g.points, 1]);
    await session.addPredictions({ source: new MemorySource('p', { 'perfect.json': JSON.stringify(perfect) }), path: 'perfect.json', name: 'perfect' });
    for (const split of SPLIT_KEYS) {
      const [r] = await session.score(session.resolveProtocol('mmocr-1.0.1', { case_split: split }));
      const missed = r.cases.flatMap((c) => c.gt.filter((g) => g.state === 'fn').map((g) => `${c.case_id} / ${g.id}`));
      // Lint names the splits in its detail; the scorer's misses in this split are exactly those.
      const said = unreachable.filter((f) => new RegExp(`splits? (.*, )?${split}(,|:)`).test(f.detail)).map((f) => `${f.case_id} / ${f.instance}`);
      expect(missed.sort(), split).toEqual(said.sort());
      expect(r.cases.flatMap((c) => c.gt.filter((g) => g.state === 'fn' && g.error !== 'dontcare'))).toEqual([]);
    }
  });
});

describe('texts that differ between LTB split files', () => {
  const file = (text: string, ignore: boolean) =>
    JSON.stringify({ data_list: [{ img_path: 'a.jpg', width: 100, height: 100, instances: [{ polygon: [10, 10, 50, 10, 50, 30, 10, 30], ignore, text }] }] });
  const lint = async (files: Record<string, string>) => {
    const src = new MemorySource('t', files);
    return keys(await lintDataset('ltb', await ltbAdapter.loadDataset(src), src)).filter((k) => !k.endsWith('image_missing'));
  };

  it('are not a disagreement when a file that marks the word don\'t care writes ###, the ICDAR convention', async () => {
    expect(await lint({ 'challenging_norm.json': file('EXIT', false), 'challenging_dense.json': file('###', true) })).toEqual([]);
  });

  it('are one when the word is care in both files, or the don\'t-care copy has another word', async () => {
    expect(await lint({ 'challenging_norm.json': file('EXIT', false), 'challenging_dense.json': file('EXlT', false) })).toEqual(['a.jpg / 0 / inconsistent_across_splits']);
    expect(await lint({ 'challenging_norm.json': file('EXIT', false), 'challenging_dense.json': file('EX1T', true) })).toEqual(['a.jpg / 0 / inconsistent_across_splits']);
  });
});

describe.skipIf(!HAS_SHARED)('polygon_invalid agrees with the scorer', () => {
  it('the IoU the detail promises a correct detection is the one MMOCR 1.0.1 scoring gives it', async () => {
    const dir = plantedLtb();
    const src = nodeFolderSource(dir);
    const session = await BenchSession.open(src, 'ltb');
    const report = await lintDataset('ltb', session.dataset, src);
    const detail = report.findings.find((f) => f.kind === 'polygon_invalid')!.detail;
    const promised = Number(/a correct detection scores IoU ([\d.]+)/.exec(detail)![1]);
    // The rectangle the bow-tie's four points make, detected exactly.
    const preds = { 'img_1.jpg': [[492, 151, 551, 151, 551, 170, 492, 170, 1]] };
    await session.addPredictions({ source: new MemorySource('p', { 'p.json': JSON.stringify(preds) }), path: 'p.json', name: 'exact' });
    const [r] = await session.score(session.resolveProtocol('mmocr-1.0.1', { case_split: 'norm' }));
    const gt = r.cases.find((c) => c.case_id === 'img_1.jpg')!.gt[3];
    expect(gt.state).toBe('fn');
    expect(gt.best_iou).toBeCloseTo(0.25, 6);
    expect(promised).toBe(Math.floor(gt.best_iou! * 100) / 100);
  });
});
