/** The generated demo opens as Chronicles-OCR, is deterministic, and scores both bundled models. */
import { describe, expect, it } from 'vitest';
import { BenchSession } from '../../session';
import { makeDemo } from './demo';
import { parseImageHeader } from '../../image/header';

describe('Chronicles-OCR demo', () => {
  it('is detected, has 2 images per script (≤ 400 px), and scores model-a above model-b', async () => {
    const demo = await makeDemo();
    expect(demo.predictions).toEqual([]);
    const s = await BenchSession.open(demo.source);
    expect(s.adapter.id).toBe('chronicles');
    expect(s.info).toMatchObject({ images: 14, cases: 3 * 2 * 4 + 4 * 2 * 2, warnings: [] });
    expect(await s.addBundledPredictions()).toEqual(['model-a', 'model-b']);
    const [a, b] = await s.score(s.resolveProtocol());
    expect(a.warnings).toEqual([]);
    expect(a.counts.cases).toBe(40);
    expect(b.counts.cases).toBeLessThan(40); // model-b skipped one image
    expect(a.metrics['all/average']).toBeGreaterThan(b.metrics['all/average']);
    // The stored extracts are what the official extractor makes of the raw answers.
    for (const r of [a, b]) for (const c of r.cases) expect(c.detail!.extract_differs, c.case_id).toBe(false);
    const paths = new Set(a.cases.map((c) => (c.detail!.extraction as { path: string } | null)?.path));
    expect([...paths]).toEqual(expect.arrayContaining(['prefix', 'whole-answer', 'last-occurrence', 'json', 'bracket-span']));
    const amb = b.cases.filter((c) => c.detail!.ambiguous);
    expect(amb.length).toBeGreaterThan(0);
    expect(amb.every((c) => c.task === 'classification' && c.facets.flag === 'ambiguous')).toBe(true);
    expect(b.counts.ambiguous_classifications).toBe(amb.length);
    for (const e of demo.source.list().filter((x) => x.path.endsWith('.png'))) {
      const h = parseImageHeader(await demo.source.read(e.path));
      expect(h).not.toBeNull();
      expect(Math.max(h!.width, h!.height)).toBeLessThanOrEqual(400);
    }
    // Every image referenced by the GT exists, at the size the GT states (Spotting scales by it).
    expect(a.cases.every((c) => c.image_file)).toBe(true);
    for (const c of a.cases.filter((x) => x.task === 'spotting')) {
      const h = parseImageHeader(await demo.source.read(c.image_file!));
      expect([h!.width, h!.height]).toEqual([c.width, c.height]);
    }
  });

  it('is deterministic', async () => {
    const [x, y] = await Promise.all([makeDemo(), makeDemo()]);
    const dump = async (d: typeof x) =>
      Promise.all(d.source.list().map(async (e) => `${e.path}:${Buffer.from(await d.source.read(e.path)).toString('base64')}`));
    expect(await dump(x)).toEqual(await dump(y));
    const gt = (d: typeof x) => d.source.read('infer_results/model-b/results.jsonl').then((b) => new TextDecoder().decode(b));
    expect(await gt(x)).toBe(await gt(y));
  });
});
