/**
 * TABench at 50,000 queries (about 9× the released 5,450), end to end in memory: open the
 * dataset (both benchmark files, image headers), read two prediction files (abs and rel1000),
 * score, build report.json and case_analysis.jsonl.
 */
import { generateTabench } from '../src/core/benchmarks/tabench/demo';
import { MemorySource } from '../src/core/io/fileSource';
import { serializeReport } from '../src/core/report';
import { BenchSession } from '../src/core/session';
import { cpu, measure } from './measure';

const QUERIES = 50_000;

export async function run(): Promise<void> {
  const g = await measure(`generate ${QUERIES} queries, 200 images, 2 prediction files`, () => generateTabench({ queries: QUERIES, images: 200 }));
  const source = new MemorySource('TABench', g.dataset);
  const preds = new MemorySource('infer_output', Object.fromEntries(Object.values(g.predictions).map((p) => [p.file, p.text])));
  const session = await cpu('open', () => measure('open dataset (abs + rel1000, image headers)', () => BenchSession.open(source), { n: QUERIES, unit: 'queries' }));
  await cpu('read', () => measure(
    'read 2 prediction files',
    async () => {
      for (const [name, p] of Object.entries(g.predictions)) await session.addPredictions({ source: preds, path: p.file, name });
    },
    { n: 2 * QUERIES, unit: 'lines' },
  ));
  const protocol = session.resolveProtocol();
  const results = await cpu('score', () => measure('score 2 models', () => session.score(protocol), { n: 2 * QUERIES, unit: 'cases' }));
  const bytes = await cpu('export', () => measure('report.json + case_analysis.jsonl', () => {
    const report = serializeReport(session.report(protocol, results));
    const lines = session.caseLines(results);
    return report.length + lines.reduce((n, l) => n + l.length + 1, 0);
  }));
  const m = results.map((r) => `${r.model}: overall ${r.metrics.overall.toFixed(4)}, ${r.cases.length} cases`).join('; ');
  console.log(`${m}; exports ${(bytes / 2 ** 20).toFixed(1)} MiB`);
}
