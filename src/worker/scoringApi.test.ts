/**
 * The worker API called directly in Node (the same functions the worker exposes), over the shared
 * ltb-mini folder given as a Listing of File objects — the shape the page posts.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { fileListing, folderListing } from '../../test/listings';
import { HAS_SHARED, shared } from '../../test/shared';
import { parseImageHeader } from '../core/image/header';
import type { Listing } from '../io/listing';
import { resetScoringApi, scoringApi } from './scoringApi';

const expected = (set: string, variant: string) =>
  JSON.parse(readFileSync(shared('reference/ltb', `expected-${set}-${variant}.json`), 'utf8')).models[set].metrics as Record<string, number>;

afterEach(() => resetScoringApi());

describe('scoringApi without a dataset', () => {
  it('refuses work with a one-line reason', async () => {
    await expect(scoringApi.score('x', {})).rejects.toThrow('no dataset is open');
  });

  it('says which benchmarks an unrecognised folder would need', async () => {
    const l: Listing = { label: 'holiday', kind: 'folder', files: [{ path: 'a.txt', file: new File(['hi'], 'a.txt') }] };
    await expect(scoringApi.openDataset(l)).rejects.toThrow(/no recognisable benchmark in "holiday" \(1 files\)/);
  });

  it('lists the demos this build has, and opens one of them', async () => {
    const demos = await scoringApi.availableDemos();
    expect(demos.length).toBeGreaterThan(0);
    const opened = await scoringApi.openDataset({ demo: demos[0] as never });
    expect(opened.benchmark).toBe(demos[0]);
    expect(opened.demo).toBe(true);
    expect(opened.models.length).toBeGreaterThan(0);
    const out = await scoringApi.score(opened.protocol.name, opened.protocol.options);
    expect(Object.keys(out.report.models)).toEqual(opened.models);
  });
});

describe.skipIf(!HAS_SHARED)('scoringApi on ltb-mini with the reference predictions', () => {
  const open = async () => {
    const opened = await scoringApi.openDataset(folderListing(shared('data/ltb-mini'), 'ltb-mini'));
    const { added } = await scoringApi.addPredictions(
      fileListing([shared('reference/ltb/ltbmini-object.json'), shared('reference/ltb/ltbmini-mmocr.jsonl')]),
    );
    return { opened, added };
  };

  it('says a prediction file is identical to one already loaded, whatever its name (content fingerprint)', async () => {
    const { added } = await open();
    expect(added).toEqual(['ltbmini-object', 'ltbmini-mmocr']);
    const bytes = readFileSync(shared('reference/ltb/ltbmini-object.json'));
    const copy: Listing = { label: 'preds', kind: 'files', files: [{ path: 'renamed-copy.json', file: new File([bytes], 'renamed-copy.json') }] };
    const out = await scoringApi.addPredictions(copy);
    expect(out.added).toEqual(['renamed-copy']);
    expect(out.duplicates).toEqual([{ model: 'renamed-copy', sameAs: 'ltbmini-object' }]);
    // A different file (one byte more: a trailing newline) is not called identical; nor is the folder set.
    const edited = new Uint8Array([...bytes, 0x0a]);
    const other: Listing = { label: 'preds', kind: 'files', files: [{ path: 'edited.json', file: new File([edited], 'edited.json') }] };
    expect((await scoringApi.addPredictions(other)).duplicates).toEqual([]);
    expect((await scoringApi.addPredictions(folderListing(shared('reference/ltb/ltbmini-icdar'), 'ltbmini-icdar'))).duplicates).toEqual([]);
    // After the original is removed, a copy added again is identical to the first copy.
    await scoringApi.removeModel('ltbmini-object');
    const again: Listing = { label: 'preds', kind: 'files', files: [{ path: 'third.json', file: new File([bytes], 'third.json') }] };
    expect((await scoringApi.addPredictions(again)).duplicates).toEqual([{ model: 'third', sameAs: 'renamed-copy' }]);
  });

  it('handles every file of a selection on its own: good ones are added, each refused one is listed with its reason', async () => {
    await scoringApi.openDataset(folderListing(shared('data/ltb-mini'), 'ltb-mini'));
    const empty = new File([''], 'empty.jsonl');
    const listing = fileListing([shared('reference/ltb/ltbmini-object.json'), shared('reference/tabench/qwen3vl-2b-sim.jsonl'), shared('reference/gansulishuzhi/glm4v-sim.jsonl')]);
    listing.files.splice(1, 0, { path: 'empty.jsonl', file: empty });
    const out = await scoringApi.addPredictions(listing);
    expect(out.added).toEqual(['ltbmini-object']);
    expect(out.models).toEqual(['ltbmini-object']);
    expect(out.refused.map((r) => r.file)).toEqual(['empty.jsonl', 'qwen3vl-2b-sim.jsonl', 'glm4v-sim.jsonl']);
    expect(out.refused[0].message).toBe('empty.jsonl: no prediction lines');
    expect(out.refused[1].message).toMatch(/^Not LTB predictions: qwen3vl-2b-sim\.jsonl is a TABench predictions file — /);
    expect(out.refused[2].message).toMatch(/^Not LTB predictions: glm4v-sim\.jsonl is a gansulishuzhi run/);
    // The good file scores exactly as it does alone.
    const { report } = await scoringApi.score('mmocr-1.0.1', {});
    expect(report.models['ltbmini-object'].metrics['norm/hmean']).toBe(expected('ltbmini-object', 'mmocr-1.0.1')['norm/hmean']);
  });

  it('detects LTB, adds one model per file and reproduces the official numbers for both variants', async () => {
    const { opened, added } = await open();
    expect(opened.benchmark).toBe('ltb');
    expect(opened.info.summary).toMatch(/^LTB — 15 splits/);
    expect(added).toEqual(['ltbmini-object', 'ltbmini-mmocr']);
    for (const variant of ['mmocr-1.0.1', 'mmocr-0.6.3']) {
      const progress: number[] = [];
      const out = await scoringApi.score(variant, { iou: 0.5 }, (p) => progress.push(p.done));
      expect(out.report.protocol.name).toBe(variant);
      for (const set of added) {
        const want = expected(set, variant);
        for (const [k, v] of Object.entries(want)) expect(out.report.models[set].metrics[k], `${set} ${k}`).toBe(v);
      }
      expect(progress.length).toBeGreaterThan(0);
    }
  });

  it('serves the case table, single cases, image bytes and the exports from the last score', async () => {
    await open();
    await scoringApi.score('mmocr-1.0.1', {});
    const t = await scoringApi.getCaseTable();
    expect(t.caseIds).toHaveLength(10);
    expect(t.models).toEqual(['ltbmini-object', 'ltbmini-mmocr']);
    const id = t.caseIds[0];
    const c = await scoringApi.getCase('ltbmini-object', id);
    expect(c?.case_id).toBe(id);
    expect(Object.keys(await scoringApi.getCases(id))).toEqual(['ltbmini-object', 'ltbmini-mmocr']);
    const bytes = await scoringApi.getImageBytes(t.imageFiles[0]!);
    expect([...bytes.subarray(0, 2)]).toEqual([0xff, 0xd8]); // a JPEG
    // A second read still works (the transfer sent a copy).
    expect((await scoringApi.getImageBytes(t.imageFiles[0]!)).byteLength).toBe(bytes.byteLength);

    const report = JSON.parse(await scoringApi.exportReport());
    expect(report.models['ltbmini-object'].metrics['hard/hmean']).toBe(expected('ltbmini-object', 'mmocr-1.0.1')['hard/hmean']);
    const qa = { status: 'gt_wrong' as const, note: 'box too small' };
    const file = await scoringApi.exportCaseAnalysis(new Map([[`ltbmini-mmocr\t${id}`, qa]]));
    expect(file.type).toBe('application/x-ndjson');
    const lines = (await file.text()).trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(20);
    expect(lines.filter((l) => l.qa)).toEqual([expect.objectContaining({ model: 'ltbmini-mmocr', case_id: id, qa })]);
    expect(lines.every((l) => !('image_file' in l))).toBe(true);
    expect((await scoringApi.exportCsv()).split('\r\n')[0]).toBe('benchmark,protocol,options,metric,ltbmini-object,ltbmini-mmocr');
  });

  it('renames and removes models in the session and in the last results', async () => {
    await open();
    await scoringApi.score('mmocr-1.0.1', {});
    expect(await scoringApi.renameModel('ltbmini-object', 'mine')).toEqual(['mine', 'ltbmini-mmocr']);
    await expect(scoringApi.renameModel('mine', 'ltbmini-mmocr')).rejects.toThrow('exists already');
    expect(Object.keys((await scoringApi.getReport())!.models)).toEqual(['mine', 'ltbmini-mmocr']);
    expect(await scoringApi.removeModel('ltbmini-mmocr')).toEqual(['mine']);
    expect((await scoringApi.getCaseTable()).models).toEqual(['mine']);
    expect(await scoringApi.getCase('ltbmini-mmocr', 'img_1.jpg')).toBeNull();
  });

  it('rejects unknown protocols and options as the CLI does', async () => {
    await open();
    await expect(scoringApi.score('mmocr-9', {})).rejects.toThrow(/unknown protocol "mmocr-9"/);
    await expect(scoringApi.score('mmocr-1.0.1', { bogus: 1 })).rejects.toThrow(/unknown option "bogus"/);
  });

  it('a cancel stops the score with an AbortError and keeps the previous results', async () => {
    await open();
    await scoringApi.score('mmocr-1.0.1', {});
    const running = scoringApi.score('mmocr-0.6.3', {}, () => void scoringApi.cancel());
    await expect(running).rejects.toMatchObject({ name: 'AbortError' });
    expect((await scoringApi.getReport())!.protocol.name).toBe('mmocr-1.0.1');
  });
});

describe.skipIf(!HAS_SHARED)('scoringApi on a folder that holds two benchmarks', () => {
  /** ltb-mini and tabench-mini side by side in one folder, as a user might keep them. */
  const both = (): Listing => {
    const ltb = folderListing(shared('data/ltb-mini'), 'ltb-mini');
    const tab = folderListing(shared('data/tabench-mini'), 'tabench-mini');
    return {
      label: 'benchmarks',
      kind: 'folder',
      files: [...ltb.files.map((f) => ({ ...f, path: `ltb-mini/${f.path}` })), ...tab.files.map((f) => ({ ...f, path: `tabench-mini/${f.path}` }))],
    };
  };

  it('opens the most confident, names every candidate with its reason, and opens the other when asked', async () => {
    const opened = await scoringApi.openDataset(both());
    const ids = opened.candidates.map((c) => c.benchmark);
    expect(ids).toHaveLength(2);
    expect(new Set(ids)).toEqual(new Set(['ltb', 'tabench']));
    expect(opened.benchmark).toBe(ids[0]);
    expect(opened.candidates[0].confidence).toBeGreaterThanOrEqual(opened.candidates[1].confidence);
    for (const c of opened.candidates) expect(c.reason.length).toBeGreaterThan(0);
    const other = await scoringApi.openDataset(both(), ids[1]);
    expect(other.benchmark).toBe(ids[1]);
    expect(other.candidates).toEqual([]); // chosen, not detected
  });

  it('lists no candidates for a folder with one benchmark', async () => {
    expect((await scoringApi.openDataset(folderListing(shared('data/ltb-mini'), 'ltb-mini'))).candidates).toEqual([]);
  });
});

describe.skipIf(!HAS_SHARED)('scoringApi.getImageBytes on pulsebench-select-mini (page images inside parquet)', () => {
  it('reads a case image by its parquet: virtual path, as the viewer and the thumbnails ask for it', async () => {
    const opened = await scoringApi.openDataset(folderListing(shared('data/pulsebench-select-mini'), 'pulsebench-select-mini'));
    expect(opened.benchmark).toBe('pulsebench-select');
    await scoringApi.addPredictions(fileListing([shared('reference/pulsebench-select/pulse-ultra-sim.jsonl')]));
    await scoringApi.score(opened.protocol.name, opened.protocol.options);
    const table = await scoringApi.getCaseTable();
    const row = table.caseIds.indexOf('sel-0003');
    expect(table.imageFiles[row]).toBe('parquet:data/train-00000-of-00001.parquet#2');
    const bytes = await scoringApi.getImageBytes(table.imageFiles[row]!);
    expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(parseImageHeader(bytes)).toMatchObject({ width: 850, height: 1100 });
    // Every case's image resolves, and different rows are different images.
    const all = await Promise.all(table.imageFiles.map((f) => scoringApi.getImageBytes(f!)));
    expect(all.every((b) => parseImageHeader(b) !== null)).toBe(true);
    expect(Buffer.from(all[0]).equals(Buffer.from(all[row]))).toBe(false);
    // Asking twice gives the same bytes (the worker transfers a copy, never the adapter's cache).
    expect(Buffer.from(await scoringApi.getImageBytes(table.imageFiles[row]!)).equals(Buffer.from(bytes))).toBe(true);
    // Ordinary files of the folder still come from the folder; unknown paths still fail.
    expect((await scoringApi.getImageBytes('README.md')).length).toBeGreaterThan(0);
    await expect(scoringApi.getImageBytes('parquet:data/train-00000-of-00001.parquet#9999')).rejects.toThrow();
  });
});
