/**
 * The GT health view through the worker API (the functions the page calls), on a dataset with
 * planted defects and no predictions: the GT-only case list, the findings, a correction that
 * fixes one (gone on re-check, credited in the changelog), and the pure numbering helpers.
 */
import { unzipSync } from 'fflate';
import { afterEach, describe, expect, it } from 'vitest';
import { plantedGtFiles, PLANTED_FINDINGS } from '../../test/gtHealthFixture';
import type { GtCorrection } from '../core';
import type { LintFinding } from '../core/lint';
import type { Listing } from '../io/listing';
import { fixedFindings, gtChangelog, toOriginalNumbering } from './gtHealth';
import { resetScoringApi, scoringApi } from './scoringApi';

afterEach(() => resetScoringApi());

function plantedListing(): Listing {
  const files = Object.entries(plantedGtFiles()).map(([path, content]) => ({ path, file: new File([content as BlobPart], path.split('/').at(-1)!) }));
  return { label: 'planted-gt', kind: 'folder', files };
}

const keysOf = (fs: readonly { case_id: string; instance?: number; kind: string }[]) => fs.map((f) => `${f.case_id} / ${f.instance ?? '-'} / ${f.kind}`);

describe('a dataset opened without predictions', () => {
  it('lists every case of its GT, with facets and GT text, and no model', async () => {
    const opened = await scoringApi.openDataset(plantedListing());
    expect(opened.models).toEqual([]);
    const t = await scoringApi.getGtCaseTable();
    expect(t.caseIds).toEqual(['img_1.png', 'img_2.png', 'img_3.png']);
    expect(t.models).toEqual([]);
    expect(t.facets.map((f) => f.key)).toContain('splits');
    expect(t.searchText[0]).toContain('hello');
    const c = await scoringApi.getGtCase('img_2.png');
    expect(c?.gt.map((g) => [g.id, g.state, g.text])).toEqual([
      [0, 'info', 'WORLD'],
      [1, 'info', 'WORLD'],
    ]);
    expect(c?.pred).toEqual([]);
  });

  it('finds the planted defects; a correction fixes one, which the re-check drops and the changelog credits', async () => {
    await scoringApi.openDataset(plantedListing());
    const before = await scoringApi.gtHealth([]);
    expect(keysOf(before.findings)).toEqual(PLANTED_FINDINGS);
    expect(before.counts).toEqual({ duplicate_instance: 1, empty_text: 1 });

    // Give the empty word its text, and delete the duplicate.
    const corrections: GtCorrection[] = [
      { case_id: 'img_1.png', gt_id: 1, text: 'THERE' },
      { case_id: 'img_2.png', gt_id: 1, deleted: true },
    ];
    const after = await scoringApi.gtHealth(corrections);
    expect(after.findings).toEqual([]);
    expect(keysOf(after.fixed)).toEqual(PLANTED_FINDINGS);
    expect(after.corrections).toBe(2);

    const files = await scoringApi.exportCorrectedGt(corrections);
    expect(Object.keys(files).sort()).toEqual(['GT-CHANGELOG.md', 'anno/mmocr1.x_format/challenging_norm.json', 'gt-changelog.json']);
    const gt = JSON.parse(files['anno/mmocr1.x_format/challenging_norm.json']) as { data_list: { img_path: string; instances: { text?: string }[] }[] };
    expect(gt.data_list.find((e) => e.img_path === 'img_1.png')!.instances.map((i) => i.text)).toEqual(['HELLO', 'THERE']);
    expect(gt.data_list.find((e) => e.img_path === 'img_2.png')!.instances).toHaveLength(1);
    const log = JSON.parse(files['gt-changelog.json']) as { fixed: number; remaining: number; changes: { case_id: string; instance: number; change: string[]; fixed: { kind: string }[] }[] };
    expect(log).toMatchObject({ fixed: 2, remaining: 0 });
    expect(log.changes.map((c) => [c.case_id, c.instance, c.change, c.fixed.map((f) => f.kind)])).toEqual([
      ['img_1.png', 1, ['text "" → "THERE"'], ['empty_text']],
      ['img_2.png', 1, ['deleted'], ['duplicate_instance']],
    ]);
    expect(files['GT-CHANGELOG.md']).toContain('## img_1.png — GT 1');
    expect(files['GT-CHANGELOG.md']).toContain('fixed `empty_text`');
    // The page zips several files into one download: the archive holds the same texts.
    const { zipTexts } = await import('../app/qa/zip');
    const unzipped = unzipSync(zipTexts(files));
    expect(Object.keys(unzipped).sort()).toEqual(Object.keys(files).sort());
  });

  it('a newer check supersedes one still running (each GT edit asks again)', async () => {
    await scoringApi.openDataset(plantedListing());
    await scoringApi.gtHealth([]); // the base check is shared, not cancelled
    const first = scoringApi.gtHealth([{ case_id: 'img_1.png', gt_id: 1, text: 'A' }]);
    const second = scoringApi.gtHealth([{ case_id: 'img_1.png', gt_id: 1, text: 'B' }]);
    await expect(first).rejects.toThrow(/cancelled/);
    expect(keysOf((await second).findings)).toEqual(['img_2.png / 1 / duplicate_instance']);
  });
});

describe('findings of corrected GT in the viewer numbering', () => {
  const f = (case_id: string, instance: number | undefined, kind = 'k'): LintFinding => ({ case_id, ...(instance === undefined ? {} : { instance }), kind, severity: 'warning', detail: '' });

  it('steps over deleted instances and names added ones', () => {
    // Case a had 5 GT; 1 and 3 deleted, one added: corrected list = [0, 2, 4, added 0].
    const corr: GtCorrection[] = [
      { case_id: 'a', gt_id: 3, deleted: true },
      { case_id: 'a', gt_id: 1, deleted: true },
      { case_id: 'a', gt_id: null, shape: { type: 'box', box: [0, 0, 1, 1] } },
    ];
    const out = toOriginalNumbering([f('a', 0), f('a', 1), f('a', 2), f('a', 3), f('a', undefined), f('b', 1)], corr, (id) => (id === 'a' ? 5 : 2));
    expect(out.map((x) => [x.case_id, x.instance, x.added])).toEqual([
      ['a', 0, undefined],
      ['a', 2, undefined],
      ['a', 4, undefined],
      ['a', undefined, 0],
      ['a', undefined, undefined],
      ['b', 1, undefined],
    ]);
  });

  it('a finding is fixed when its kind is gone from its instance', () => {
    expect(fixedFindings([f('a', 1, 'x'), f('a', 1, 'y'), f('a', undefined, 'z')], [f('a', 1, 'y')]).map((x) => x.kind)).toEqual(['x', 'z']);
  });

  it('credits a finding on an uncorrected instance to the corrections of its case', () => {
    // A duplicate reported on GT 2 fixed by moving GT 0.
    const log = gtChangelog([{ case_id: 'a', gt_id: 0, shape: { type: 'box', box: [50, 50, 60, 60] } }], [f('a', 2, 'duplicate_instance')], () => [
      { id: 0, state: 'info', shape: { type: 'box', box: [0, 0, 10, 10] } },
    ]);
    expect(log).toEqual([
      { case_id: 'a', instance: 0, change: ['shape box [0, 0, 10, 10] → box [50, 50, 60, 60]'], fixed: [{ kind: 'duplicate_instance', severity: 'warning', instance: 2, detail: '' }] },
    ]);
  });
});
