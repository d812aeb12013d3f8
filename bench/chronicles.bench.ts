/**
 * Chronicles-OCR end to end at the size: 2,800 images (400 per script) × 2 models, in
 * memory — read the GT, read both results files, judge every (image, task) with the default
 * protocol and with reextract=true, build report.json and case_analysis.jsonl.
 */
import { generateChronicles } from '../src/core/benchmarks/chronicles/demo';
import { serializeReport } from '../src/core/report';
import { BenchSession } from '../src/core/session';
import { measure } from './measure';

export async function run(): Promise<void> {
  const src = await measure('generate 2,800 images × 2 models (in memory, stub images)', () =>
    generateChronicles({ perScript: 400, images: 'stub', seed: 5 }),
  );
  const session = await measure('open + read GT', () => BenchSession.open(src));
  await measure('read 2 results files', () => session.addBundledPredictions());
  const cases = session.info.cases * 2;
  for (const [label, options] of [
    ['score (stored extract)', {}],
    ['score (reextract=true)', { reextract: 'true' }],
  ] as const) {
    const protocol = session.resolveProtocol(undefined, options);
    const results = await measure(label, () => session.score(protocol), { n: cases, unit: 'cases' });
    const out = await measure('report.json + case_analysis.jsonl', () => {
      const report = serializeReport(session.report(protocol, results));
      const lines = session.caseLines(results);
      return { report: report.length, lines: lines.length, bytes: lines.reduce((n, l) => n + l.length, 0) };
    });
    const a = results[0].metrics['all/average'];
    const b = results[1].metrics['all/average'];
    console.log(
      `  ${results.map((r) => r.counts.cases).join(' + ')} cases; all/average ${a.toFixed(4)} / ${b.toFixed(4)}; ` +
        `${out.lines} case lines, ${(out.bytes / 2 ** 20).toFixed(1)} MiB`,
    );
  }
}
