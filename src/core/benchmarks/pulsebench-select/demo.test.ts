import { describe, expect, it } from 'vitest';
import { parseImageHeader } from '../../image/header';
import { BenchSession } from '../../session';
import { makeDemo } from './demo';
import { pulsebenchAdapter, type PulseDataset } from './index';

describe('PulseBench-Select demo', () => {
  it('is a JSONL + image-folder dataset that is detected, loaded and scored', async () => {
    const demo = await makeDemo();
    const paths = demo.source.list().map((e) => e.path);
    expect(paths).toContain('data/train.jsonl');
    expect(paths.filter((p) => p.startsWith('images/'))).toHaveLength(6);
    const session = await BenchSession.open(demo.source);
    expect(session.adapter.id).toBe('pulsebench-select');
    expect(session.info.warnings).toEqual([]);
    expect(session.info.images).toBe(6);
    for (const p of demo.predictions) await session.addPredictions(p);
    expect(session.modelNames).toEqual(['boxes-and-labels', 'labels-only']);
    const [a, b] = await session.score(session.resolveProtocol());
    const d = session.dataset as PulseDataset;
    const truth = d.samples.reduce((n, s) => n + s.gt.length, 0);
    // boxes-and-labels: one option left out, a wrong quiz answer, "separately" for "jointly".
    expect([a.metrics.tp, a.metrics.fp, a.metrics.fn]).toEqual([truth - 3, 2, 3]);
    // labels-only: every selected option right (case and missing boxes do not matter), one FP
    // on the blank checklist, one line for an unknown sample.
    expect([b.metrics.tp, b.metrics.fp, b.metrics.fn]).toEqual([truth, 1, 0]);
    expect(b.counts.unknown_samples).toBe(1);
    expect(b.cases.find((c) => c.case_id === 'demo-0004')!.outcome).toBe('fail');
    const bytes = await pulsebenchAdapter.imageBytes(d, 'demo-0001');
    expect(parseImageHeader(bytes!)).toMatchObject({ format: 'png', width: a.cases[0].width, height: a.cases[0].height });
  });

  it('is deterministic', async () => {
    const [x, y] = [await makeDemo(), await makeDemo()];
    const read = async (d: Awaited<ReturnType<typeof makeDemo>>) =>
      Promise.all(d.source.list().map(async (e) => [e.path, Buffer.from(await d.source.read(e.path)).toString('base64')]));
    expect(await read(x)).toEqual(await read(y));
  });
});
