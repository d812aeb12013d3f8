/**
 * A dense gansulishuzhi page: one page, 60,000 / 120,000 / 300,000 overlapping predicted boxes
 * (test/densePage.ts), scored with the error taxonomy through BenchSession. The figures
 * before the change: 60,000 boxes 5.5 s, 120,000 28 s, 300,000 not done in 2 minutes (the
 * `split` union of Clipper2 grew quadratically). Sizes: DENSE_SIZES=60000,120000 to run fewer.
 */
import { MemorySource } from '../src/core/io/fileSource';
import { BenchSession } from '../src/core/session';
import { densePageFiles } from '../test/densePage';
import { measure } from './measure';

const SIZES = (process.env.DENSE_SIZES ?? '60000,120000,300000').split(',').map(Number);

export async function run(): Promise<void> {
  for (const n of SIZES) {
    const files = densePageFiles(n);
    const s = await BenchSession.open(new MemorySource('dense', files.dataset));
    await s.addPredictions({ source: new MemorySource('r', { 'run.jsonl': files.run }), path: 'run.jsonl', name: 'run' });
    // CPU time beside wall time: on a shared machine the wall time is mostly waiting for a core.
    const cpu0 = process.cpuUsage();
    const [r] = await measure(`gansulishuzhi, 1 page, ${n} overlapping boxes: score + taxonomy`, () => s.score(s.resolveProtocol(undefined, {})), { n, unit: 'boxes' });
    const cpu = process.cpuUsage(cpu0);
    const split = r.diagnostics?.errors?.['iou0.5']?.fn.split ?? 0;
    console.log(
      `  CPU ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s; iou0.5 f1 ${r.metrics['iou0.5/f1'].toFixed(6)}, split FNs at 0.5: ${split}; max RSS so far ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`,
    );
  }
}
