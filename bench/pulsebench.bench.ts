/**
 * PulseBench-Select end to end at 5,000 samples (10× the real dataset): JSONL dataset and one
 * prediction file generated in memory, then detect + load, read predictions, score, and write
 * case_analysis lines. Images are left out: their cost is reading, measured by the parquet tests.
 */
import { MemorySource, singleFileSource } from '../src/core/io/fileSource';
import { BenchSession } from '../src/core/session';
import { measure } from './measure';

const SAMPLES = 5000;
const WORDS = ['yes', 'no', 'full', 'time', 'part', 'married', 'filing', 'jointly', 'separately', 'email', 'phone', 'mail', 'fever', 'cough', 'b)', '56', 'carbon', 'dioxide'];

function rng(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}

function generate(): { data: string; preds: string; selected: number } {
  const rand = rng(42);
  const label = () => Array.from({ length: 1 + Math.floor(rand() * 4) }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(' ');
  const box = (x: number, y: number) => [x, y, x + 0.1, y, x + 0.1, y + 0.015, x, y + 0.015].map((v) => Math.round(v * 1e4) / 1e4);
  const data: string[] = [];
  const preds: string[] = [];
  let selected = 0;
  for (let i = 0; i < SAMPLES; i++) {
    const id = `s-${String(i).padStart(5, '0')}`;
    const annotations: Record<string, unknown>[] = [];
    for (let k = 0; k < 30; k++) {
      const cand = k % 3 !== 0;
      annotations.push({ category: cand ? 'List-item' : 'Text', bbox: box(0.1 + (k % 5) * 0.15, 0.05 + Math.floor(k / 5) * 0.12), content: label(), page: 1, selected: cand && rand() < 0.2, selection_candidate: cand });
    }
    const sel = annotations.filter((a) => a.selected).map((a) => ({ page: 1, bbox: a.bbox, content: a.content, category: a.category }));
    selected += sel.length;
    data.push(JSON.stringify({ sample_id: id, ground_truth: JSON.stringify({ page_count: 1, annotations, selected_items: sel }) }));
    // A model that finds most selections, drops some boxes, and adds a few wrong ones.
    const items = sel
      .filter(() => rand() < 0.85)
      .map((s) => (rand() < 0.3 ? { content: s.content } : { ...s, bbox: (s.bbox as number[]).map((v) => v + 0.003) }));
    if (rand() < 0.3) items.push({ content: label() });
    preds.push(JSON.stringify({ sample_id: id, selected_items: items }));
  }
  return { data: data.join('\n') + '\n', preds: preds.join('\n') + '\n', selected };
}

/** CPU seconds of a step beside measure()'s wall time: the machine may be shared. */
async function cpu<T>(label: string, fn: () => Promise<T> | T, per?: { n: number; unit: string }): Promise<T> {
  const c0 = process.cpuUsage();
  const out = await measure(label, fn, per);
  const c = process.cpuUsage(c0);
  console.log(`  ${label}: ${((c.user + c.system) / 1e6).toFixed(2)} s CPU`);
  return out;
}

export async function run(): Promise<void> {
  const g = await measure('generate 5,000 samples (JSONL in memory)', () => generate());
  console.log(`  dataset ${(g.data.length / 2 ** 20).toFixed(1)} MiB, predictions ${(g.preds.length / 2 ** 20).toFixed(1)} MiB, ${g.selected} selected GT items`);
  const src = new MemorySource('bench', { 'data/train.jsonl': g.data });
  const predSrc = new MemorySource('p', { 'model.jsonl': g.preds });
  const t0 = performance.now();
  const session = await cpu('detect + load dataset', () => BenchSession.open(src), { n: SAMPLES, unit: 'samples' });
  await cpu('read predictions', () => session.addPredictions({ source: singleFileSource(predSrc, 'model.jsonl'), path: 'model.jsonl', name: 'model' }), { n: SAMPLES, unit: 'samples' });
  const protocol = session.resolveProtocol();
  const results = await cpu('score (cases with reasons)', () => session.score(protocol), { n: SAMPLES, unit: 'samples' });
  const lines = await cpu('case_analysis lines', () => session.caseLines(results), { n: SAMPLES, unit: 'cases' });
  console.log(
    `  end to end ${((performance.now() - t0) / 1000).toFixed(2)} s; F1 ${results[0].metrics.f1.toFixed(4)}, ` +
      `tp ${results[0].metrics.tp} fp ${results[0].metrics.fp} fn ${results[0].metrics.fn}; ` +
      `case_analysis ${(lines.reduce((n, l) => n + l.length + 1, 0) / 2 ** 20).toFixed(1)} MiB`,
  );
}
