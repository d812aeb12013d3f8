/**
 * Box dialects of vision-language models (shared/specs/vlm-boxes.md) on the real-layout mini sets:
 * for every family × {TABench abs file, TABench rel1000 file, gansulishuzhi}, a prediction file
 * whose answers give the exact GT boxes in that family's own syntax (test/vlmDialectFixtures.ts).
 * Scored by default, the number is the spec parser's (unchanged) and the file is diagnosed with
 * the option that reads it; scored with that option, F1 is exactly 1 (Kosmos-2's 32-cell grid
 * excepted on word boxes: it cannot draw them, and the test says what it does instead).
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { nodeFolderSource } from '../../../cli/nodeSource';
import { HAS_SHARED, shared } from '../../../test/shared';
import { gansuFile, tabenchFile, tabenchSizes, WRITERS, type Img, type Unit } from '../../../test/vlmDialectFixtures';
import { MemorySource, stem } from '../io/fileSource';
import type { ModelResult } from '../model';
import { BenchSession } from '../session';
import { BOX_FAMILIES } from '../text/vlmBoxes/families';
import type { BoxFamily } from '../text/vlmBoxes/types';
import { smartResize } from '../text/vlmBoxes/smartResize';

const jsonlOf = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

type Target = 'tabench-abs' | 'tabench-rel1000' | 'gansulishuzhi';
const HEADLINE: Record<Target, string> = { 'tabench-abs': 't2r/f1', 'tabench-rel1000': 't2r/f1', gansulishuzhi: 'iou0.5/f1' };

async function score(target: Target, file: string, text: string, options: Record<string, string> = {}): Promise<ModelResult> {
  const dataset = target === 'gansulishuzhi' ? 'gansulishuzhi-mini' : 'tabench-mini';
  const session = await BenchSession.open(nodeFolderSource(shared('data', dataset)));
  await session.addPredictions({ source: new MemorySource('preds', { [file]: text }), path: file, name: stem(file) });
  const [r] = await session.score(session.resolveProtocol(undefined, options));
  return r;
}

/** Fixtures a family cannot score exactly: Kosmos-2's 32 × 32 grid on TABench's word boxes. */
const COARSE = new Set(['kosmos2/tabench-abs', 'kosmos2/tabench-rel1000']);

describe.skipIf(!HAS_SHARED)('box dialects: a fixture per family × TABench space × gansulishuzhi', () => {
  let sizes: Map<string, Img>;
  beforeAll(async () => {
    sizes = await tabenchSizes();
  });
  const fixture = (family: BoxFamily, target: Target): [string, string] =>
    target === 'gansulishuzhi'
      ? [`${family}.jsonl`, gansuFile(family)]
      : [`${family}-${target}.jsonl`, tabenchFile(target === 'tabench-abs' ? 'abs' : 'rel1000', family, sizes)];

  for (const family of BOX_FAMILIES) {
    for (const target of ['tabench-abs', 'tabench-rel1000', 'gansulishuzhi'] as Target[]) {
      it(`${family} on ${target}: default diagnosed and unchanged, boxes=${family} reads it`, async () => {
        const [file, text] = fixture(family, target);
        const key = HEADLINE[target];
        const official = await score(target, file, text);
        const named = await score(target, file, text, { boxes: family });
        const auto = await score(target, file, text, { boxes: 'auto' });
        const coarse = COARSE.has(`${family}/${target}`);
        if (!coarse) expect(named.metrics[key]).toBe(1);
        // The official number is the spec parser's: the diagnosis quotes it and never replaces it.
        const d = official.boxDialect;
        if (official.metrics[key] === 1) {
          // Read right already (Qwen2.5-VL on a page whose resized size is its own): nothing to say.
          expect(d).toBeUndefined();
        } else {
          expect(d).toBeDefined();
          expect(d!.official).toBe(official.metrics[key]);
          expect(d!.currentValue).toBe(official.metrics[key]);
          expect(d!.dialects.map((x) => x.family)).toEqual([family === 'qwen3vl' ? 'qwen25vl' : family]);
          expect(d!.fit?.value).toBe(named.metrics[key]);
          expect(d!.fit?.option).toBe(`boxes=${family}`);
          expect(official.warnings).toContain(d!.text);
          expect(d!.text).toContain(`--option boxes=${family} reads them`);
        }
        // Under the option, the diagnosis keeps the official number beside the one read now.
        expect(named.boxDialect?.current).toBe(family);
        expect(named.boxDialect?.official).toBe(official.metrics[key]);
        expect(named.boxDialect?.currentValue).toBe(named.metrics[key]);
        // auto reads every answer by its markers (bbox_2d by the file's fit): the same as the family.
        expect(auto.metrics[key]).toBe(named.metrics[key]);
        if (coarse) {
          // The grid's best drawing of a word box: better than the spec parser, not exact.
          expect(named.metrics[key]).toBeGreaterThan(official.metrics[key]);
        }
      });
    }
  }
});

describe.skipIf(!HAS_SHARED)('box dialects: mixed files, per-line coords', () => {
  const pages = () =>
    readFileSync(shared('data', 'gansulishuzhi-mini', 'manifest.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as { id: string; image_size_px: [number, number]; gt_bboxes: [number, number, number, number][] });

  it('a run mixing Gemini and InternVL answers is read by auto, each answer by its markers', async () => {
    const text = jsonlOf(
      pages().map((p, i) => {
        const [w, h] = p.image_size_px;
        const unit = p.gt_bboxes.map((b): Unit => [b[0] / w, b[1] / h, b[2] / w, b[3] / h]);
        return { id: p.id, response: unit.length ? WRITERS[i % 2 ? 'gemini' : 'internvl'](unit, { width: w, height: h }) : '[]' };
      }),
    );
    const official = await score('gansulishuzhi', 'mixed.jsonl', text);
    const d = official.boxDialect!;
    expect(d.dialects.map((x) => x.family).sort()).toEqual(['gemini', 'internvl']);
    expect(d.fit).toEqual({ choice: 'auto', options: { boxes: 'auto' }, option: 'boxes=auto', value: 1 });
    // One family alone misreads the other half: auto is the reading that fits.
    expect(d.readings.find((r) => r.choice === 'gemini')!.value).toBeLessThan(1);
    expect(d.readings.find((r) => r.choice === 'internvl')!.value).toBeLessThan(1);
    expect((await score('gansulishuzhi', 'mixed.jsonl', text, { boxes: 'auto' })).metrics['iou0.5/f1']).toBe(1);
  });

  it('gansulishuzhi: lines whose own "coords" their boxes contradict are named; they still score as declared', async () => {
    // page_030's pixel boxes declared rel1000, amid right answers without "coords" (the file-level
    // check sees nothing wrong with those, so only the line is named).
    const byId = new Map(pages().map((p) => [p.id, p]));
    const text = jsonlOf([
      ...['page_003', 'page_014', 'page_058'].map((id) => ({ id, pred_bboxes: byId.get(id)!.gt_bboxes })),
      { id: 'page_030', pred_bboxes: byId.get('page_030')!.gt_bboxes, coords: 'rel1000' },
    ]);
    const r = await score('gansulishuzhi', 'declared.jsonl', text);
    expect(r.warnings).toEqual([
      `line coords: 1 line declares "coords": "rel1000" but its boxes fit pixels (line 4): as declared they reach 1 of the 3 GT boxes on its page at IoU ≥ 0.5, as pixels 3 — a line's own "coords" decides how it is scored (gansulishuzhi.md), so they score as declared; correct or drop the lines' "coords"`,
    ]);
    // Scored as declared: the official number does not move.
    expect(r.metrics['iou0.5/tp']).toBe(4 + 1);
    expect(r.boxDialect).toBeUndefined();
  });

  it('TABench: T2R lines whose own coord_type their boxes contradict are named; the numbers stay', async () => {
    // The abs file answered exactly; the 3rd, 5th and 7th T2R lines say coord_type "rel1000".
    const t2r = readFileSync(shared('data', 'tabench-mini', 'TABench-abs.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.task_type === 'T2R');
    const boxes = (gt: unknown) => (Array.isArray(gt) ? gt : [gt]).map((g) => (g as { bbox: number[] }).bbox);
    const rows = t2r.map((l, i) => ({ ...l, ...([2, 4, 6].includes(i) ? { coord_type: 'rel1000' } : {}), prediction: JSON.stringify(boxes(l.GT)) }));
    const r = await score('tabench-abs', 'declared.jsonl', jsonlOf(rows));
    expect(r.metrics['t2r/f1']).toBe(1);
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toMatch(
      /^line coord_type: 3 T2R lines declare coord_type "rel1000" but their boxes fit pixels \(lines 3, 5, 7\): as declared they reach \d+ of the (\d+) GT boxes of their queries at IoU ≥ 0\.5, as pixels \1 — the file is scored in abs/,
    );
  });

  it('the issue\'s InternVL row: with coords=rel1000 the spec parser keeps only the first <box> of an answer; the diagnosis names boxes=internvl', async () => {
    const text = gansuFile('internvl');
    const r = await score('gansulishuzhi', 'internvl.jsonl', text, { coords: 'rel1000' });
    // 7 of 11 figures: pages with two or three figures lose all but the first (F1 2·7/(7+11)).
    expect(r.metrics['iou0.5/tp']).toBe(7);
    expect(r.metrics['iou0.5/f1']).toBe((2 * 7) / (7 + 11));
    expect(r.boxDialect?.official).toBe(r.metrics['iou0.5/f1']);
    expect(r.boxDialect?.fit).toEqual({ choice: 'internvl', options: { boxes: 'internvl' }, option: 'boxes=internvl', value: 1 });
    expect((await score('gansulishuzhi', 'internvl.jsonl', text, { coords: 'rel1000', boxes: 'internvl' })).metrics['iou0.5/f1']).toBe(1);
  });

  it('refuses a box option it cannot use, with a one-line reason', async () => {
    const session = await BenchSession.open(nodeFolderSource(shared('data', 'gansulishuzhi-mini')));
    expect(() => session.resolveProtocol(undefined, { boxes: 'llava' })).toThrow(/option boxes=llava for gansulishuzhi: expected one of default, auto, qwen2vl/);
    expect(() => session.resolveProtocol(undefined, { qwen25vl_max_pixels: '0' })).toThrow('option qwen25vl_max_pixels=0 for gansulishuzhi: expected a number of pixels > 0');
    expect(() => session.resolveProtocol(undefined, { qwen25vl_min_pixels: '5000', qwen25vl_max_pixels: '4000' })).toThrow(
      'options for gansulishuzhi: qwen25vl_min_pixels (5000) is above qwen25vl_max_pixels (4000)',
    );
  });

  it('Qwen2.5-VL run with max_pixels = 1280·28·28: the fit finds the resize and names both options', async () => {
    // tabench-mini has images above 1,003,520 pixels (Book 900×1200, Document 1000×1400, Receipt 1600×1200).
    const sizes = await tabenchSizes();
    const rows = readFileSync(shared('data', 'tabench-mini', 'TABench-abs.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.task_type === 'T2R')
      .map((l) => {
        const img = sizes.get(l.image_path as string)!;
        const s = smartResize(img.width, img.height, undefined, 1280 * 28 * 28)!;
        const boxes = (Array.isArray(l.GT) ? l.GT : [l.GT]).map((g) => (g as { bbox: number[] }).bbox);
        const answer = boxes.map((b) => ({ bbox_2d: [b[0] * (s.width / img.width), b[1] * (s.height / img.height), b[2] * (s.width / img.width), b[3] * (s.height / img.height)].map(Math.round) }));
        return { ...l, prediction: JSON.stringify(answer) };
      });
    const text = jsonlOf(rows);
    const r = await score('tabench-abs', 'qwen25vl-1m.jsonl', text);
    expect(r.boxDialect?.fit).toEqual({
      choice: 'qwen25vl',
      options: { boxes: 'qwen25vl', qwen25vl_max_pixels: 1003520 },
      option: 'boxes=qwen25vl --option qwen25vl_max_pixels=1003520',
      value: 1,
    });
    expect(r.warnings.join('\n')).toContain('--option boxes=qwen25vl --option qwen25vl_max_pixels=1003520 reads them');
    const read = await score('tabench-abs', 'qwen25vl-1m.jsonl', text, { boxes: 'qwen25vl', qwen25vl_max_pixels: '1003520' });
    expect(read.metrics['t2r/f1']).toBe(1);
    expect(read.boxDialect?.fitInForce).toBe(true);
    // The default resize is not this run's: fewer boxes match.
    expect((await score('tabench-abs', 'qwen25vl-1m.jsonl', text, { boxes: 'qwen25vl' })).metrics['t2r/f1']).toBeLessThan(1);
  });
});
