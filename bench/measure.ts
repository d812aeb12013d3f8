/** Wall time and peak memory of one step, printed as a figure line. */
export interface Figure {
  label: string;
  seconds: number;
  peakRssMiB: number;
  heapMiB: number;
  perSecond?: { n: number; unit: string };
}

export async function measure<T>(label: string, fn: () => Promise<T> | T, per?: { n: number; unit: string }): Promise<T> {
  (globalThis as { gc?: () => void }).gc?.();
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  const t0 = performance.now();
  try {
    const out = await fn();
    const seconds = (performance.now() - t0) / 1000;
    peak = Math.max(peak, process.memoryUsage().rss);
    const heap = process.memoryUsage().heapUsed;
    const rate = per ? `, ${(per.n / seconds).toFixed(0)} ${per.unit}/s` : '';
    console.log(`${label}: ${seconds.toFixed(2)} s${rate}, peak RSS ${(peak / 2 ** 20).toFixed(0)} MiB, heap ${(heap / 2 ** 20).toFixed(0)} MiB`);
    return out;
  } finally {
    clearInterval(timer);
  }
}

/** CPU seconds of a step beside its wall time: on a loaded machine wall time says little. */
export async function cpu<T>(label: string, fn: () => Promise<T>): Promise<T> {
  const before = process.cpuUsage();
  const out = await fn();
  const used = process.cpuUsage(before);
  console.log(`  ${label}: ${((used.user + used.system) / 1e6).toFixed(2)} s CPU`);
  return out;
}
