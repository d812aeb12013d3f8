import { describe, expect, it } from 'vitest';
import { BenchSession } from '../../session';
import { makeDemo } from './demo';

describe('LTB demo bundle', () => {
  it('is a real-layout dataset with two models in two forms, generated quickly and deterministically', async () => {
    const t0 = performance.now();
    const demo = await makeDemo();
    const ms = performance.now() - t0;
    const paths = demo.source.list().map((e) => e.path);
    expect(paths.filter((p) => /^anno\/mmocr1\.x_format\/challenging_.+\.json$/.test(p))).toHaveLength(15);
    expect(paths.filter((p) => /^anno\/hard\/images\/img_\d\.png$/.test(p))).toHaveLength(8);
    const session = await BenchSession.open(demo.source);
    expect(session.adapter.id).toBe('ltb');
    expect(session.info.warnings).toEqual([]);
    expect(session.info.images).toBe(8);
    for (const p of demo.predictions) await session.addPredictions(p);
    expect(session.modelNames).toEqual(['demo-dbnet', 'demo-psenet']);
    const results = await session.score(session.resolveProtocol(undefined, {}));
    for (const r of results) {
      expect(r.warnings).toEqual([]);
      expect(r.metrics['norm/hmean']).toBeGreaterThan(0.3);
      expect(r.metrics['norm/hmean']).toBeLessThan(1);
      expect(r.cases).toHaveLength(8);
    }
    expect(results[0].metrics['norm/hmean']).not.toBe(results[1].metrics['norm/hmean']);
    const again = await makeDemo();
    expect(await again.source.read('anno/mmocr1.x_format/challenging_hard.json')).toEqual(await demo.source.read('anno/mmocr1.x_format/challenging_hard.json'));
    expect(ms).toBeLessThan(5000); // < 1 s on an idle machine; generous for a loaded CI box
  });
});
