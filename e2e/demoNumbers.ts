/** The LTB demo scored in Node (BenchSession, default protocol): the numbers the page must show. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { makeDemo } from '../src/core/benchmarks/ltb/demo';
import { BenchSession } from '../src/core/session';

export const KEY = 'norm/hmean';

export async function ltbDemoNumbers(): Promise<{ models: string[]; metric: Record<string, number> }> {
  const demo = await makeDemo();
  const session = await BenchSession.open(demo.source, 'ltb');
  for (const p of demo.predictions) await session.addPredictions(p);
  const protocol = session.resolveProtocol();
  const report = session.report(protocol, await session.score(protocol));
  const metric: Record<string, number> = {};
  for (const m of session.modelNames) metric[m] = report.models[m].metrics[KEY] as number;
  return { models: session.modelNames, metric };
}

/** The LTB demo written out as folders a user would open: the dataset and the prediction files. */
export async function writeLtbDemo(dir: string): Promise<{ dataset: string; predictions: string[] }> {
  const demo = await makeDemo();
  const dataset = join(dir, 'ltb-demo');
  for (const { path } of demo.source.list()) {
    mkdirSync(dirname(join(dataset, path)), { recursive: true });
    writeFileSync(join(dataset, path), await demo.source.read(path));
  }
  const predictions: string[] = [];
  for (const p of demo.predictions) {
    const file = join(dir, 'preds', `${p.name}.json`);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, await p.source.read(p.path));
    predictions.push(file);
  }
  return { dataset, predictions };
}
