/** A demo scored in Node as the page scores it (bundled predictions, then the demo's): its case lines and models, for tests that check what a page lists. */
import type { DemoBundle } from '../src/core/demo';
import { BenchSession } from '../src/core/session';

export interface DemoLine {
  case_id: string;
  model: string;
  facets: Record<string, unknown>;
}

export async function demoLines(benchmark: 'chronicles' | 'tabench', makeDemo: () => Promise<DemoBundle>): Promise<{ lines: DemoLine[]; models: string[] }> {
  const bundle = await makeDemo();
  const session = await BenchSession.open(bundle.source, benchmark);
  await session.addBundledPredictions();
  for (const p of bundle.predictions) await session.addPredictions(p);
  const results = await session.score(session.resolveProtocol(undefined, {}));
  return { lines: [...session.eachCaseLine(results)].map((l) => JSON.parse(l) as DemoLine), models: results.map((r) => r.model) };
}
