/**
 * No input depth or size can throw a whole prediction file away, in any benchmark: into a real
 * prediction file (shared data, read in place) go, after line 1, a copy of line 1 with a value
 * nested 100,000 deep, a bare list nested 100,000 deep, and a line of 513 MiB (more than one
 * JavaScript string holds; streamed as one reused 1 MiB chunk, so the test holds 1 MiB). Each costs
 * its line, named by number; every other line scores exactly as in the clean file, and the report
 * and the case export still serialise.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nodeFolderSource } from '../../../cli/nodeSource';
import { HAS_SHARED, shared } from '../../../test/shared';
import { MemorySource, type FileSource } from '../io/fileSource';
import type { BenchmarkId } from '../model';
import { serializeReport } from '../report';
import { BenchSession } from '../session';

const CASES: { benchmark: BenchmarkId; dataset: string; pred: string }[] = [
  { benchmark: 'ltb', dataset: 'data/ltb-mini', pred: 'reference/ltb/ltbmini-mmocr.jsonl' },
  { benchmark: 'chronicles', dataset: 'data/chronicles-mini', pred: 'data/chronicles-mini/infer_results/model-a/results.jsonl' },
  { benchmark: 'tabench', dataset: 'data/tabench-mini', pred: 'reference/tabench/thinker-7b-sim.jsonl' },
  { benchmark: 'gansulishuzhi', dataset: 'data/gansulishuzhi-mini', pred: 'reference/gansulishuzhi/glm4v-sim.jsonl' },
  { benchmark: 'pulsebench-select', dataset: 'data/pulsebench-select-mini', pred: 'reference/pulsebench-select/pulse-ultra-sim.jsonl' },
];

const DEEP = '['.repeat(100_000) + ']'.repeat(100_000);
const LONG_MIB = 513;

/** The file with the three hostile lines after line 1, as a streaming source. */
function hostile(text: string): FileSource {
  const enc = new TextEncoder();
  const lines = text.replace(/\n$/, '').split('\n');
  const head = enc.encode([lines[0], lines[0].replace(/^\{/, `{"deep": ${DEEP}, `), DEEP, ''].join('\n'));
  const tail = enc.encode('\n' + lines.slice(1).join('\n') + '\n');
  const a = new Uint8Array(1 << 20).fill(0x61);
  return {
    label: 'hostile',
    list: () => [{ path: 'm.jsonl', size: head.length + LONG_MIB * a.length + tail.length }],
    read: async () => {
      throw new Error('the reader read the whole file instead of streaming it');
    },
    async *stream() {
      yield head;
      for (let i = 0; i < LONG_MIB; i++) yield a;
      yield tail;
    },
  };
}

describe.skipIf(!HAS_SHARED).each(CASES)('$benchmark: a hostile line costs that line', ({ benchmark, dataset, pred }) => {
  it('100,000-deep values and a 513 MiB line are named by line; the rest scores as the clean file', async () => {
    const text = readFileSync(shared(pred), 'utf8');
    const session = await BenchSession.open(nodeFolderSource(shared(dataset)), benchmark);
    await session.addPredictions({ source: new MemorySource('clean', { 'm.jsonl': text }), path: 'm.jsonl', name: 'clean' });
    await session.addPredictions({ source: hostile(text), path: 'm.jsonl', name: 'hostile' });
    const protocol = session.resolveProtocol();
    const [clean, bad] = await session.score(protocol);
    expect(bad.metrics).toEqual(clean.metrics);
    const warnings = bad.warnings.join('\n');
    // Line 2 (line 1 again, with a deep value): refused by depth, or (LTB, whose reader never
    // walks unknown keys) read and then refused as a repeat of line 1.
    expect(warnings).toMatch(benchmark === 'ltb' ? /line 2: predictions for img_10\.jpg were already given/ : /line 2: nested deeper than 512 levels/);
    expect(warnings).toMatch(benchmark === 'ltb' ? /line 3: not an object/ : /line 3: nested deeper than 512 levels/);
    expect(warnings).toMatch(/line 4: 513 MiB long, more than the 512 MiB a JavaScript string holds/);
    // Nothing deep reached a result: the report and every case line serialise.
    const report = session.report(protocol, [clean, bad]);
    expect(() => serializeReport(report)).not.toThrow();
    expect(() => [...session.eachCaseLine([bad])]).not.toThrow();
  });
});

describe.skipIf(!HAS_SHARED)('LTB whole-document JSON: a deep value costs its entry', () => {
  it('an entry nested 100,000 deep in {image: [entries]} is dropped with a warning that quotes it; the file scores as the clean one', async () => {
    const text = readFileSync(shared('reference/ltb/ltbmini-object.json'), 'utf8');
    // Before the first entry of the first image: `"img_10.jpg": [` + DEEP + `, [26.3, …`.
    const m = /": \[\s*\[/.exec(text);
    expect(m).not.toBeNull();
    const at = m!.index + m![0].indexOf('[') + 1;
    const hostileDoc = text.slice(0, at) + DEEP + ', ' + text.slice(at);
    const session = await BenchSession.open(nodeFolderSource(shared('data/ltb-mini')), 'ltb');
    await session.addPredictions({ source: new MemorySource('c', { 'm.json': text }), path: 'm.json', name: 'clean' });
    await session.addPredictions({ source: new MemorySource('h', { 'm.json': hostileDoc }), path: 'm.json', name: 'hostile' });
    const [clean, bad] = await session.score(session.resolveProtocol());
    expect(bad.metrics).toEqual(clean.metrics);
    expect(bad.warnings.join('\n')).toMatch(/m\.json: img_\w+\.jpg entry 1: .*\(dropped\)/);
  });
});

describe.skipIf(!HAS_SHARED)('Chronicles-OCR: a model answer holding deep JSON', () => {
  it('an answer string with JSON nested 100,000 deep is judged, under both extract settings, and the run exports', async () => {
    const lines = readFileSync(shared('data/chronicles-mini/infer_results/model-a/results.jsonl'), 'utf8').trimEnd().split('\n');
    const o = JSON.parse(lines[0]) as { infer_results: Record<string, { answer: string; extract?: unknown }> };
    for (const task of Object.values(o.infer_results)) {
      task.answer = `[{"bbox": [1, 2, 3, 4], "char": ${DEEP}}]`;
      delete task.extract;
    }
    lines[0] = JSON.stringify(o);
    const session = await BenchSession.open(nodeFolderSource(shared('data/chronicles-mini')), 'chronicles');
    await session.addPredictions({ source: new MemorySource('p', { 'r.jsonl': lines.join('\n') + '\n' }), path: 'r.jsonl', name: 'm' });
    const settings: Record<string, string>[] = [{}, { reextract: 'true' }];
    for (const options of settings) {
      const protocol = session.resolveProtocol(undefined, options);
      const results = await session.score(protocol);
      expect(() => serializeReport(session.report(protocol, results))).not.toThrow();
      expect([...session.eachCaseLine(results)].length).toBeGreaterThan(0);
    }
  });
});
