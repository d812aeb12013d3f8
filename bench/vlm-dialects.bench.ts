/**
 * What the box-dialect diagnosis costs (shared/specs/vlm-boxes.md: "must be cheap"): TABench at
 * 50,000 queries, the abs predictions of the generated demo scored three ways — as they are (plain
 * JSON boxes: the diagnosis tries the plain variants and says nothing), rewritten as Gemini
 * `box_2d` answers (diagnosed: the official reading and the Gemini one), and that file read with
 * boxes=gemini. CPU seconds beside wall time; the diagnosis's own share is timed apart.
 */
import { generateTabench } from '../src/core/benchmarks/tabench/demo';
import { MemorySource } from '../src/core/io/fileSource';
import { BenchSession } from '../src/core/session';
import { cpu, measure } from './measure';
import { joinPredictions, type TabenchPredictions } from '../src/core/benchmarks/tabench/predictions';
import { diagnoseTabenchFile, specOf } from '../src/core/benchmarks/tabench/dialects';
import type { TabenchDataset } from '../src/core/benchmarks/tabench/dataset';
import { usableSize } from '../src/core/geometry/coordSpace';
import type { LoadedPredictions } from '../src/core/model';

const QUERIES = 50_000;

/** The same answers as Gemini writes them: box_2d, y first, 0–1000 of the image. */
function asGemini(text: string, sizes: Map<string, { width: number; height: number }>): string {
  return text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => {
      const r = JSON.parse(l) as Record<string, unknown>;
      if (r.task_type !== 'T2R' || typeof r.prediction !== 'string') return l;
      const s = sizes.get(r.image_path as string);
      let boxes: number[][];
      try {
        boxes = JSON.parse(r.prediction) as number[][];
      } catch {
        return l;
      }
      if (!s || !Array.isArray(boxes)) return l;
      const g = boxes.filter((b) => Array.isArray(b) && b.length === 4).map((b) => ({ box_2d: [(b[1] * 1000) / s.height, (b[0] * 1000) / s.width, (b[3] * 1000) / s.height, (b[2] * 1000) / s.width].map(Math.round), label: 'x' }));
      return JSON.stringify({ ...r, prediction: '```json\n' + JSON.stringify(g) + '\n```' });
    })
    .join('\n');
}

export async function run(): Promise<void> {
  const g = await generateTabench({ queries: QUERIES, images: 200 });
  const source = new MemorySource('TABench', g.dataset);
  const plain = g.predictions['demo-careful-abs'];
  const opened = await BenchSession.open(source);
  const sizes = (opened as unknown as { dataset: { imageSizes: Map<string, { width: number; height: number }> } }).dataset.imageSizes;
  const gemini = asGemini(plain.text, sizes);
  const files = new MemorySource('preds', { 'plain/TABench-abs_with_predictions.jsonl': plain.text, 'gemini/TABench-abs_with_predictions.jsonl': gemini });
  for (const [name, options] of [
    ['plain', {}],
    ['gemini', {}],
    ['gemini', { boxes: 'gemini' }],
  ] as [string, Record<string, string>][]) {
    const session = await BenchSession.open(source);
    await session.addPredictions({ source: files, path: `${name}/TABench-abs_with_predictions.jsonl`, name });
    const protocol = session.resolveProtocol(undefined, options);
    const [r] = await cpu(`${name} ${JSON.stringify(options)}`, () =>
      measure(`score ${name} ${JSON.stringify(options)}`, () => session.score(protocol), { n: QUERIES, unit: 'queries' }),
    );
    // The diagnosis alone, as the score runs it (one matching pass per reading tried).
    const ds = (session as unknown as { dataset: TabenchDataset }).dataset;
    const preds = (session as unknown as { models: Map<string, LoadedPredictions<TabenchPredictions>> }).models.get(name)!;
    const data = ds.spaces.abs!;
    const join = joinPredictions(data, preds.data);
    const sizeOf = (p: string) => usableSize(ds.imageSizes.get(p));
    await cpu('  of which the diagnosis', async () =>
      measure(`  diagnosis of ${name}`, () =>
        diagnoseTabenchFile(data, join, preds.data.lines, 'abs', sizeOf, protocol.options, 'micro', 0.5, (options.boxes as 'gemini' | undefined) ?? 'default', (line) => specOf(line)),
      ),
    );
    const d = r.boxDialect;
    console.log(`  t2r/f1 ${r.metrics['t2r/f1'].toFixed(4)}; diagnosis: ${d ? `official ${d.official.toFixed(4)}, readings ${d.readings.map((x) => `${x.choice} ${x.value.toFixed(4)}`).join(', ')}` : 'none'}`);
  }
}
