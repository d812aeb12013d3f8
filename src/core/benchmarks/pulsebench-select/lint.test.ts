import { describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HAS_SHARED, shared } from '../../../../test/shared';
import { expectViewerNumbering, keys, lintCli, withExifOrientation } from '../../../../test/lintFixtures';
import { nodeFolderSource } from '../../../../cli/nodeSource';
import { openParquet, readParquetRows } from '../../io/parquet';
import { embeddedImageSize, imageField, loadPulseDataset } from './dataset';
import { lintPulse } from './lint';
import { tempDir } from '../../../../test/tempDirs';

const MINI = () => shared('data', 'pulsebench-select-mini');

interface Item {
  page: number;
  bbox: number[];
  content?: string;
  text?: string;
  selected?: boolean;
  selection_candidate?: boolean;
}
interface Gt {
  annotations: Item[];
  selected_items: Item[];
}

const text = (v: unknown) => (typeof v === 'string' ? v : new TextDecoder().decode(v as Uint8Array));

/**
 * The mini dataset (parquet, PNGs embedded) rewritten by our own parquet reader into the JSONL +
 * image-folder layout the adapter also reads, with one planted defect of every kind that applies.
 */
async function plantedPulse(): Promise<string> {
  const src = nodeFolderSource(MINI());
  const pf = await openParquet(src, 'data/train-00000-of-00001.parquet');
  const rows = await readParquetRows(pf, { columns: ['sample_id', 'ground_truth', 'image'], utf8: false });
  const dir = tempDir('bl-lint-pulse-');
  mkdirSync(join(dir, 'data', 'images'), { recursive: true });
  const lines: string[] = [];
  for (const r of rows) {
    const id = text(r.sample_id);
    const gt = JSON.parse(text(r.ground_truth)) as Gt;
    const { bytes } = imageField(r.image);
    const sel = gt.selected_items;
    switch (id) {
      case 'sel-0001':
        break; // image_missing: its PNG is not written
      case 'sel-0002': // no_selected_option: the marks lost
        gt.selected_items = [];
        for (const a of gt.annotations) if (a.selected) a.selected = false;
        break;
      case 'sel-0003':
        sel[1].content = ''; // empty_text
        break;
      case 'sel-0004':
        sel[2].content = 'Part\uFFFDtime'; // text_suspicious
        break;
      case 'sel-0007':
        sel[0].bbox = sel[0].bbox.map((v, i) => (i % 2 === 0 ? v + 0.65 : v)); // out_of_image: x up to 1.19
        break;
      case 'sel-0010':
        sel.push({ ...sel[0], bbox: sel[0].bbox.map((v) => v + 0.0002) }); // duplicate_instance: #3 repeats #0
        break;
    }
    let image = `images/${id}.png`;
    if (id === 'sel-0008') {
      // exif_rotated: this page as a JPEG (a real photo's bytes) with EXIF orientation 8.
      image = `images/${id}.jpg`;
      writeFileSync(join(dir, 'data', image), withExifOrientation(readFileSync(shared('data', 'ltb-mini', 'anno/hard/images/img_2.jpg')), 8));
    } else if (id !== 'sel-0001') writeFileSync(join(dir, 'data', image), id === 'sel-0009' ? 'not a png' : bytes!);
    lines.push(JSON.stringify({ sample_id: id, image, ground_truth: gt }));
  }
  writeFileSync(join(dir, 'data', 'train.jsonl'), lines.join('\n') + '\n');
  return dir;
}

describe.skipIf(!HAS_SHARED)('lint on PulseBench-Select', () => {
  it('names an image embedded in the parquet whose EXIF orientation turns it, with its file and row', async () => {
    const ds = await loadPulseDataset(nodeFolderSource(MINI()));
    const s = ds.samples.find((x) => x.id === 'sel-0006')!;
    expect(s.turnedEmbedded).toBeUndefined();
    // The row's bytes as a JPEG photo with EXIF orientation 6 (what a phone scan of the form carries).
    const turned = withExifOrientation(readFileSync(shared('data', 'ltb-mini', 'anno/hard/images/img_2.jpg')), 6);
    expect(embeddedImageSize(s, turned, 'data/train-00000-of-00001.parquet row 5')).toBe(true);
    expect([s.width, s.height]).toEqual([720, 1280]);
    const { findings } = await lintPulse(ds, nodeFolderSource(MINI()));
    // (lintPulse's own order; the report sorts them.)
    expect(findings.map((f) => `${f.case_id} ${f.kind}`).sort()).toEqual(['sel-0005 no_selected_option', 'sel-0006 exif_rotated']);
    expect(findings.find((f) => f.kind === 'exif_rotated')!.detail).toMatch(/^sel-0006\.png \(data\/train-00000-of-00001\.parquet row 5\) carries EXIF orientation 6 \(rotated 90° clockwise\): browsers show it turned \(720×1280\)/);
    // Bytes with no header: not a size.
    expect(embeddedImageSize(s, new Uint8Array([1, 2, 3]), 'x')).toBe(false);
  });

  it('finds only the blank checklist (sel-0005: nothing selected among 5 candidates) in the unmodified mini dataset', () => {
    const { report } = lintCli(MINI());
    expect(report).toMatchObject({ benchmark: 'pulsebench-select', dataset: { cases: 10, instances: 71 } });
    // The card's blank vehicle checklist: the spec's no_selected_option by definition (a warning to look at, not an error).
    expect(keys(report)).toEqual(['sel-0005 / - / no_selected_option']);
  });

  it('finds every planted defect at its sample and item, and nothing else', async () => {
    const dir = await plantedPulse();
    const { report } = lintCli(dir);
    await expectViewerNumbering('pulsebench-select', dir, report);
    expect(keys(report)).toEqual([
      'sel-0001 / - / image_missing',
      'sel-0002 / - / no_selected_option',
      'sel-0003 / 1 / empty_text',
      'sel-0004 / 2 / text_suspicious',
      'sel-0005 / - / no_selected_option',
      'sel-0007 / 0 / out_of_image',
      'sel-0008 / - / exif_rotated',
      'sel-0009 / - / image_missing',
      'sel-0010 / 3 / duplicate_instance',
    ]);
    const d = (c: string) => report.findings.find((f) => f.case_id === c)!.detail;
    expect(d('sel-0001')).toMatch(/images\/sel-0001\.png is not in the folder/);
    expect(d('sel-0002')).toMatch(/nothing is selected among 7 selection candidates/);
    expect(d('sel-0009')).toMatch(/does not decode: not a PNG, JPEG/);
    expect(d('sel-0007')).toMatch(/outside the 850×1100 image/);
    expect(d('sel-0008')).toMatch(/EXIF orientation 8 \(rotated 90° counter-clockwise\): browsers show it turned \(720×1280\), pipelines that read the stored pixels .* do not \(1280×720\)/);
    expect(d('sel-0010')).toMatch(/with instance 0 on page 1 \(same content "Vegan"\)/);
  });
});
