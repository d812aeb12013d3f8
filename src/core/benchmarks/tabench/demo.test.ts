import { describe, expect, it } from 'vitest';
import { BenchSession } from '../../session';
import { makeDemo } from './demo';

describe('TABench demo', () => {
  it('opens as TABench, scores both models and is deterministic', async () => {
    const a = await makeDemo();
    const s = await BenchSession.open(a.source);
    expect(s.adapter.id).toBe('tabench');
    expect(s.info.warnings).toEqual([]);
    for (const p of a.predictions) await s.addPredictions(p);
    expect(s.modelNames).toEqual(['demo-careful-abs', 'demo-thinker-rel1000']);
    const protocol = s.resolveProtocol();
    const results = await s.score(protocol);
    for (const r of results) {
      expect(r.counts.missing_predictions).toBe(0);
      expect(r.metrics.overall).toBeGreaterThan(0.3);
      expect(r.metrics.overall).toBeLessThan(1);
    }
    expect(results[0].counts.unparseable_outputs).toBeGreaterThan(0);
    // Two files in different spaces: the report names both.
    expect(s.report(protocol, results).protocol.options.coords).toBe('abs,rel1000');
    // Every case can be drawn: images are found and shapes are in pixels.
    for (const c of results[1].cases) {
      expect(c.image_file).toBeTruthy();
      for (const g of c.gt) if (c.task === 'T2R') expect(g.shape?.type).toBe('box');
    }
    const b = await makeDemo();
    expect(b.source.list()).toEqual(a.source.list());
    expect(await b.source.read('TABench-rel1000.jsonl')).toEqual(await a.source.read('TABench-rel1000.jsonl'));
  });
});
