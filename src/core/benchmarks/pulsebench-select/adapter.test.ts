import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeFolderSource } from '../../../../cli/nodeSource';
import { HAS_SHARED, shared } from '../../../../test/shared';
import { MemorySource, singleFileSource, type FileSource } from '../../io/fileSource';
import { openParquet, readParquetRows } from '../../io/parquet';
import { parseImageHeader } from '../../image/header';
import { InputError, type ModelResult, type PredictionInput } from '../../model';
import { BenchSession, detectBenchmark } from '../../session';
import { pulsebenchAdapter, type PulseDataset } from './index';
import { runCli } from '../../../../test/cli';

const MINI = 'data/pulsebench-select-mini';
const REF = 'reference/pulsebench-select';
const DATA_FILE = 'data/train-00000-of-00001.parquet';

function refPred(name: string): PredictionInput {
  const parent = nodeFolderSource(shared(REF));
  return { source: singleFileSource(parent, `${name}.jsonl`), path: `${name}.jsonl`, name };
}

async function scoreWith(src: FileSource, model: string, options: Record<string, string> = {}): Promise<ModelResult> {
  const session = await BenchSession.open(src);
  await session.addPredictions(refPred(model));
  const [r] = await session.score(session.resolveProtocol(undefined, options));
  return r;
}

/** The mini dataset re-exported as JSONL rows + an image folder (what a user may keep). */
async function jsonlExport(jsonlPath: string): Promise<MemorySource> {
  const src = nodeFolderSource(shared(MINI));
  const pf = await openParquet(src, DATA_FILE);
  const text = await readParquetRows(pf, { columns: ['sample_id', 'ground_truth'] });
  const imgs = await readParquetRows(pf, { columns: ['image'], utf8: false });
  const files: Record<string, Uint8Array | string> = {};
  const lines = text.map((r, i) => {
    const img = imgs[i].image as { bytes: Uint8Array; path: string };
    files[`images/${img.path}`] = img.bytes;
    return JSON.stringify({ sample_id: r.sample_id, image: `images/${img.path}`, ground_truth: r.ground_truth });
  });
  files[jsonlPath] = lines.join('\n') + '\n';
  return new MemorySource('export', files);
}

describe.skipIf(!HAS_SHARED)('PulseBench-Select adapter on pulsebench-select-mini', () => {
  it('detects the parquet layout and reads the leaderboard of the results config', async () => {
    const src = nodeFolderSource(shared(MINI));
    const found = await detectBenchmark(src);
    expect(found?.adapter.id).toBe('pulsebench-select');
    const d = (await pulsebenchAdapter.loadDataset(src)) as PulseDataset;
    expect(d.info.cases).toBe(10);
    expect(d.info.images).toBe(10);
    expect(d.info.warnings).toEqual([]);
    expect(d.info.fingerprint).toMatch(/^pulsebench-select:10:[0-9a-f]{16}$/);
    expect(d.samples.reduce((n, s) => n + s.gt.length, 0)).toBe(25); // the README's 25 selected items
    expect(d.samples.filter((s) => s.gt.length === 0).map((s) => s.id)).toEqual(['sel-0005']);
    // The symptom table's selected cells carry `text`, not `content`.
    expect(d.byId.get('sel-0006')!.gt.map((g) => g.content)).toEqual(['Fever', 'Headache']);
    expect(d.leaderboard.map((r) => [r.rank, r.display_name, r.precision, r.recall, r.selection_f1])).toEqual([
      [1, 'Pulse', 0.782, 0.761, 0.772],
      [2, 'GPT-5.5', 0.383, 0.311, 0.343],
      [6, 'GPT-4o', 0.223, 0.191, 0.206],
    ]);
    expect(d.info.facts?.['card leaderboard: Pulse']).toBe('P 0.782 · R 0.761 · F1 0.772 (placeholder)');
  });

  it('gives each case a viewable image: a parquet virtual path, its size, and the bytes via imageBytes', async () => {
    const src = nodeFolderSource(shared(MINI));
    const session = await BenchSession.open(src);
    await session.addPredictions(refPred('pulse-ultra-sim'));
    const [r] = await session.score(session.resolveProtocol());
    const c = r.cases[2];
    expect(c.case_id).toBe('sel-0003');
    expect(c.image_file).toBe(`parquet:${DATA_FILE}#2`);
    expect([c.width, c.height]).toEqual([850, 1100]);
    const bytes = await pulsebenchAdapter.imageBytes(session.dataset as PulseDataset, 'sel-0003');
    expect([...bytes!.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(parseImageHeader(bytes!)).toMatchObject({ width: 850, height: 1100 });
    const direct = await readParquetRows(await openParquet(src, DATA_FILE), { columns: ['image'], rowStart: 2, rowEnd: 3, utf8: false });
    expect(Buffer.from(bytes!).equals(Buffer.from((direct[0].image as { bytes: Uint8Array }).bytes))).toBe(true);
    expect(await pulsebenchAdapter.imageBytes(session.dataset as PulseDataset, 'no-such-case')).toBeNull();
    // The viewer may ask by image_file instead of case_id.
    const byPath = await pulsebenchAdapter.imageBytes(session.dataset as PulseDataset, c.image_file!);
    expect(Buffer.from(byPath!).equals(Buffer.from(bytes!))).toBe(true);
    expect(await pulsebenchAdapter.imageBytes(session.dataset as PulseDataset, 'parquet:results/train-00000-of-00001.parquet#0')).toBeNull();
  });

  it('explains the vetoed "No" and the 7-of-9-token label of gpt-vision-sim', async () => {
    const r = await scoreWith(nodeFolderSource(shared(MINI)), 'gpt-vision-sim');
    const s4 = r.cases.find((c) => c.case_id === 'sel-0004')!;
    const vetoed = s4.pred.find((p) => p.state === 'fp')!;
    expect(vetoed.text).toBe('No');
    expect(vetoed.reason).toMatch(/^nearest GT \d+ "No": centroid 0\.\d\d > 0\.35$/);
    const s8 = r.cases.find((c) => c.case_id === 'sel-0008')!;
    expect(s8.pred.find((p) => p.state === 'fp')!.reason).toMatch(/token overlap 0\.78 < 0\.80/);
    const s5 = r.cases.find((c) => c.case_id === 'sel-0005')!;
    expect(s5.outcome).toBe('fail');
    expect(s5.facets.has_selection).toBe(false);
    expect(r.cases.find((c) => c.case_id === 'sel-0006')!.errors).toEqual(['no_prediction']);
    // Unselected predictions are shown, never scored.
    expect(r.cases[0].pred.filter((p) => p.state === 'info').map((p) => p.reason)).toEqual(['selected: false — not scored']);
  });

  it('applies centroid_max=-1 and missing_box=fail', async () => {
    const src = nodeFolderSource(shared(MINI));
    const base = await scoreWith(src, 'gpt-vision-sim');
    const off = await scoreWith(src, 'gpt-vision-sim', { centroid_max: '-1' });
    // The one vetoed "No" now matches: one TP more, one FP and one FN fewer.
    expect([off.metrics.tp, off.metrics.fp, off.metrics.fn]).toEqual([base.metrics.tp + 1, base.metrics.fp - 1, base.metrics.fn - 1]);
    const fail = await scoreWith(src, 'gpt-vision-sim', { missing_box: 'fail' });
    // Every GT item has a box, so only predictions with boxes can still match.
    const boxedTp = base.cases.reduce((n, c) => n + c.pred.filter((p) => p.state === 'tp' && p.attrs?.bbox).length, 0);
    expect(fail.metrics.tp).toBe(boxedTp);
    expect(fail.metrics.tp).toBeLessThan(base.metrics.tp);
    expect(() => pulsebenchAdapter.resolveProtocol(undefined, { missing_box: 'maybe' })).toThrow(InputError);
    expect(() => pulsebenchAdapter.resolveProtocol(undefined, { empty_overlap: '0.5' })).toThrow(InputError);
    expect(pulsebenchAdapter.resolveProtocol(undefined, { empty_overlap: '1' }).options.empty_overlap).toBe(1);
  });

  it('scores the JSONL + image-folder export exactly like the parquet (data/*.jsonl and root *.jsonl)', async () => {
    const base = await scoreWith(nodeFolderSource(shared(MINI)), 'gpt-vision-sim');
    for (const path of ['data/train.jsonl', 'train.jsonl']) {
      const src = await jsonlExport(path);
      const found = await detectBenchmark(src);
      expect(found?.adapter.id, path).toBe('pulsebench-select');
      const r = await scoreWith(src, 'gpt-vision-sim');
      expect(r.metrics, path).toEqual(base.metrics);
      expect(r.cases[0].image_file).toBe('images/sel-0001.png');
      expect([r.cases[0].width, r.cases[0].height]).toEqual([850, 1100]);
    }
  });
});

describe.skipIf(!HAS_SHARED)('PulseBench-Select bad input', () => {
  const miniBytes = () => nodeFolderSource(shared(MINI)).read(DATA_FILE);

  it('names a data parquet without the expected columns', async () => {
    const results = await nodeFolderSource(shared(MINI)).read('results/train-00000-of-00001.parquet');
    const src = new MemorySource('x', { 'data/train-00000-of-00001.parquet': results });
    const err = await BenchSession.open(src).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as Error).message).toMatch(/^data\/train-00000-of-00001\.parquet: not a PulseBench-Select data file \(missing columns sample_id, ground_truth/);
  });

  it('names a truncated parquet file', async () => {
    const src = new MemorySource('x', { 'data/train-00000-of-00001.parquet': (await miniBytes()).slice(0, 300_000) });
    const err = await BenchSession.open(src).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as Error).message).toMatch(/^data\/train-00000-of-00001\.parquet: not a readable parquet file/);
  });

  it('rejects a prediction file of another benchmark, naming it', async () => {
    const session = await BenchSession.open(nodeFolderSource(shared(MINI)));
    const other = new MemorySource('p', {
      'tabench-preds.jsonl': '{"id": "q1", "answer": [1, 2, 3, 4]}\n{"id": "q2", "answer": []}\n',
      'ltb.json': '{\n  "img_1.jpg": [{"points": [0, 0, 1, 1]}]\n}\n',
    });
    for (const path of ['tabench-preds.jsonl', 'ltb.json']) {
      const err = await session.addPredictions({ source: singleFileSource(other, path), path, name: path }).catch((e: unknown) => e);
      expect(err, path).toBeInstanceOf(InputError);
      expect((err as Error).message).toMatch(new RegExp(`^prediction file ${path.replace('.', '\\.')}: no line names a sample_id of this dataset`));
    }
  });

  it('keeps going past malformed prediction lines, counting them', async () => {
    const session = await BenchSession.open(nodeFolderSource(shared(MINI)));
    const text = '{"sample_id": "sel-0001", "content": "No"}\n{oops\n{"sample_id": "sel-0002", "items": 5}\n';
    const src = new MemorySource('p', { 'm.jsonl': text });
    await session.addPredictions({ source: singleFileSource(src, 'm.jsonl'), path: 'm.jsonl', name: 'm' });
    const [r] = await session.score(session.resolveProtocol());
    expect(r.counts).toMatchObject({ malformed_lines: 2, missing_samples: 9 });
    expect(r.warnings).toEqual(['line 2: not valid JSON', 'line 3: items is not a list']);
    expect(r.metrics.tp).toBe(1);
  });

  it('makes the CLI exit 2 with a one-line reason for a foreign prediction file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pulsebench-bad-'));
    writeFileSync(join(dir, 'other.jsonl'), '{"image": "a.jpg", "text": "x"}\n');
    const { status, stderr } = runCli(['score', '--dataset', shared(MINI), '--pred', join(dir, 'other.jsonl'), '--out', join(dir, 'out')]);
    expect(status).toBe(2);
    expect(stderr).toMatch(/^benchlens: prediction file other\.jsonl: no line names a sample_id/);
  }, 60_000);
});
