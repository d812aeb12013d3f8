import { readFileSync, writeFileSync } from 'node:fs';
import { EXTRACTORS, stripThinking } from './src/core/benchmarks/chronicles/extract';
import { judgeParsing } from './src/core/benchmarks/chronicles/judge';
const cases: string[] = JSON.parse(readFileSync('/tmp/off/cases.json', 'utf8'));
const out = cases.map((c) => {
  const r: Record<string, unknown> = {};
  for (const k of ['classification', 'parsing', 'recognition', 'spotting'] as const) r[k] = EXTRACTORS[k](c).extract;
  r.strip = stripThinking(c).text;
  r.jparse = judgeParsing(c, [...c].reverse().join('')).score;
  return r;
});
writeFileSync('/tmp/off/ts_out.json', JSON.stringify(out));
