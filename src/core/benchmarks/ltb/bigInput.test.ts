/**
 * What lets a dense detector's 1 GB JSONL through (issue 6): predictions packed into typed arrays
 * while the file streams, prediction instances rebuilt on demand above a size, and JSON too big
 * for one string refused with what to do instead. Each path must give byte-identical results to
 * the plain one.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { chunkedSource } from '../../../../test/chunkedSource';
import { MemorySource, singleFileSource } from '../../io/fileSource';
import { BenchSession } from '../../session';
import { ON_DEMAND } from './cases';
import { makeDemo } from './demo';

/** `file` of `src` streamed in chunks of `chunk` bytes, listed with `size` (default: its real size). */
const streamed = (src: MemorySource, file: string, chunk: number, size?: number) => chunkedSource(src, chunk, size === undefined ? {} : { [file]: size });

async function demoSession() {
  const demo = await makeDemo();
  const session = await BenchSession.open(demo.source);
  return { session, demo };
}

/** The demo's JSONL model (MMOCR inferencer lines) as text, with a broken line added. */
async function demoJsonl(): Promise<{ text: string; src: MemorySource }> {
  const demo = await makeDemo();
  const input = demo.predictions.find((p) => p.path.endsWith('.jsonl'))!;
  const text = new TextDecoder().decode(await input.source.read(input.path));
  const lines = text.trimEnd().split('\n');
  lines.splice(2, 0, '{"img_path": "broken');
  const withBad = lines.join('\n') + '\n';
  return { text: withBad, src: new MemorySource('p', { 'dense.jsonl': withBad }) };
}

afterEach(() => {
  ON_DEMAND.predictions = 500_000;
});

describe('LTB predictions at 1 GB scale', () => {
  it('a JSONL streamed in small chunks scores exactly like the same file read whole, broken line included', async () => {
    const { src } = await demoJsonl();
    const results = [];
    for (const source of [src, streamed(src, 'dense.jsonl', 61)]) {
      const { session } = await demoSession();
      await session.addPredictions({ source: singleFileSource(source, 'dense.jsonl'), path: 'dense.jsonl', name: 'dense' });
      const [r] = await session.score(session.resolveProtocol(undefined, {}));
      results.push({ metrics: r.metrics, warnings: r.warnings, counts: r.counts, lines: session.caseLines([r]) });
    }
    expect(results[0].warnings).toContain('dense.jsonl: line 3: not valid JSON');
    expect(results[0].counts.malformed_lines).toBe(1);
    expect(results[0].metrics['norm/hits']).toBeGreaterThan(0);
    expect(results[1]).toEqual(results[0]);
  });

  it('reports bytes read while the JSONL streams', async () => {
    const { src, text } = await demoJsonl();
    const { session } = await demoSession();
    const seen: number[] = [];
    await session.addPredictions(
      { source: singleFileSource(streamed(src, 'dense.jsonl', 512), 'dense.jsonl'), path: 'dense.jsonl', name: 'dense' },
      { progress: (p) => p.unit === 'bytes' && seen.push(p.done) },
    );
    expect(seen.at(-1)).toBe(new TextEncoder().encode(text).byteLength);
  });

  it('prediction instances built on demand give the same case lines, and are not kept on the record', async () => {
    const { session, demo } = await demoSession();
    for (const p of demo.predictions) await session.addPredictions(p);
    const protocol = session.resolveProtocol(undefined, {});
    const eager = await session.score(protocol);
    ON_DEMAND.predictions = -1;
    const lazy = await session.score(protocol);
    expect(lazy.map((r) => r.metrics)).toEqual(eager.map((r) => r.metrics));
    expect(session.caseLines(lazy)).toEqual(session.caseLines(eager));
    // The error taxonomy is the same on both paths: classes on the rebuilt instances, counts, suspects' inputs.
    expect(lazy.map((r) => r.diagnostics)).toEqual(eager.map((r) => r.diagnostics));
    expect(session.caseLines(lazy).filter((l) => /"state":"fp"[^}]*"error":"/.test(l)).length).toBeGreaterThan(0);
    expect(session.report(protocol, lazy).diagnostics).toEqual(session.report(protocol, eager).diagnostics);
    const c = lazy[0].cases[0];
    const d = Object.getOwnPropertyDescriptor(c, 'pred')!;
    expect(typeof d.get).toBe('function');
    expect(d.enumerable).toBe(true);
    expect(c.pred.length).toBeGreaterThan(0);
    expect(c.pred[0].shape?.type).toBe('polygon');
    // Read twice, built once (the viewer asks for the same case more than once).
    expect(c.pred).toBe(c.pred);
    expect(Object.getOwnPropertyDescriptor(eager[0].cases[0], 'pred')!.get).toBeUndefined();
  });

  it('a .json too big for one string is read as JSONL when it is JSONL, and otherwise refused with what to do', async () => {
    const { src } = await demoJsonl();
    const asJson = new MemorySource('p', { 'big.json': await src.read('dense.jsonl') });
    const huge = 600 * 2 ** 20;
    const { session } = await demoSession();
    await session.addPredictions({ source: singleFileSource(streamed(asJson, 'big.json', 4096, huge), 'big.json'), path: 'big.json', name: 'big' });
    const [r] = await session.score(session.resolveProtocol(undefined, {}));
    expect(r.metrics['norm/hits']).toBeGreaterThan(0);

    const doc = new MemorySource('p', { 'doc.json': JSON.stringify({ 'img_1.jpg': [[0, 0, 10, 0, 10, 10, 0, 10, 0.9]] }) });
    const add = session.addPredictions({ source: singleFileSource(streamed(doc, 'doc.json', 4096, huge), 'doc.json'), path: 'doc.json', name: 'doc' });
    await expect(add).rejects.toThrow(/doc\.json: a 600 MiB JSON document is more than a browser can parse in one piece \(512 MiB\); write one image per line as JSONL/);
  });
});
