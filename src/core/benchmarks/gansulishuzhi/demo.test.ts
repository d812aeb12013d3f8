import { describe, expect, it } from 'vitest';
import { BenchSession } from '../../session';
import { makeDemo } from './demo';

describe('gansulishuzhi demo', () => {
  it('opens as gansulishuzhi with its runs bundled, and scores both', async () => {
    const demo = await makeDemo();
    expect(demo.predictions).toEqual([]);
    const s = await BenchSession.open(demo.source);
    expect(s.adapter.id).toBe('gansulishuzhi');
    expect(await s.addBundledPredictions()).toEqual(['demo-structured', 'demo-raw-answers']);
    const results = await s.score(s.resolveProtocol());
    for (const r of results) {
      expect(r.metrics['iou0.5/f1']).toBeGreaterThan(0.5);
      expect(r.metrics['iou0.5/f1']).toBeLessThan(1);
      for (const c of r.cases) expect(c.detail?.overlay_path).toMatch(/^overlays\//);
    }
    const raw = results.find((r) => r.model === 'demo-raw-answers')!;
    expect(raw.warnings).toEqual(['line 6: unparseable_output', 'line 7: unknown page']);
    const again = await makeDemo();
    expect(await again.source.read('pages/page_007.png')).toEqual(await demo.source.read('pages/page_007.png'));
  });
});
