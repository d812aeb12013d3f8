/**
 * CPU profiles of the page's main thread (CDP Profiler) for the browser benches: what ran in each
 * busy stretch. Used by browser-score and browser-big-jsonl with BENCH_PROFILE=1.
 */
export interface CpuProfile {
  /** Microseconds, the clock of trace events (CDP always sends it). */
  startTime: number;
  nodes: { id: number; children?: number[]; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}

/** A profile's nodes by id, each node's parent, and a "function file:line" label per node. */
export function profileTree(profile: CpuProfile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const label = (id: number) => {
    const f = byId.get(id)!.callFrame;
    return `${f.functionName || '(anonymous)'} ${f.url.split('/').at(-1)}:${f.lineNumber + 1}`;
  };
  return { byId, parent, label };
}

/**
 * What the main thread did in each busy stretch over 40 ms (consecutive non-idle samples, gaps
 * under `gapMs` bridged — about one task): its heaviest functions by self time, and the app's own
 * functions on the stack by inclusive time.
 */
export function printHeaviest(profile: CpuProfile, top = 10, gapMs = 1): void {
  const { byId, parent, label } = profileTree(profile);
  const idle = (id: number) => byId.get(id)!.callFrame.functionName === '(idle)';
  const stretches: { from: number; to: number; ms: number }[] = [];
  let cur: { from: number; to: number; ms: number } | null = null;
  let gap = 0;
  profile.samples.forEach((id, k) => {
    const dt = (profile.timeDeltas[k + 1] ?? 0) / 1000;
    if (!idle(id)) {
      if (!cur) cur = { from: k, to: k, ms: 0 };
      cur.ms += dt + gap;
      cur.to = k;
      gap = 0;
    } else if (cur) {
      gap += dt;
      if (gap > gapMs) {
        stretches.push(cur);
        cur = null;
        gap = 0;
      }
    }
  });
  if (cur) stretches.push(cur);
  for (const st of stretches.filter((x) => x.ms > 40)) {
    const self = new Map<string, number>();
    const inclusive = new Map<string, number>();
    for (let k = st.from; k <= st.to; k++) {
      const id = profile.samples[k];
      const dt = (profile.timeDeltas[k + 1] ?? 0) / 1000;
      self.set(label(id), (self.get(label(id)) ?? 0) + dt);
      const seen = new Set<string>();
      for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
        const l = label(n);
        if (seen.has(l) || !/\.js:/.test(l) || /jsx-runtime|^\(/.test(l)) continue;
        seen.add(l);
        inclusive.set(l, (inclusive.get(l) ?? 0) + dt);
      }
    }
    const list = (m: Map<string, number>) =>
      [...m]
        .sort((a, b) => b[1] - a[1])
        .slice(0, top)
        .map(([name, v]) => `${v.toFixed(0)} ${name}`)
        .join(' | ');
    console.log(`busy stretch of ${st.ms.toFixed(0)} ms — self: ${list(self)}`);
    console.log(`   app functions (inclusive): ${list(inclusive)}`);
  }
}
