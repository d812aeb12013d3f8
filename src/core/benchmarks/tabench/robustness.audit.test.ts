/**
 * Pathological model outputs must cost at most their own case, never the run: deep nesting,
 * thousands of tags or brackets, runaway answers. The linear rewrites of the think / fence
 * cleaners are checked against the original regular expressions on random strings.
 */
import { describe, expect, it } from 'vitest';
import { MemorySource } from '../../io/fileSource';
import { BenchSession } from '../../session';
import { cleanModelOutput, stripCodeFence, stripThink } from '../../text/modelOutput';
import { parseR2t, parseT2r } from './parse';

/** The regex forms the scans replaced (same rules, quadratic on some inputs). */
function thinkByRegex(raw: string): string {
  let s = raw.replace(/<think>[\s\S]*?<\/think>/g, '');
  const close = s.lastIndexOf('</think>');
  if (close >= 0) s = s.slice(close + '</think>'.length);
  const open = s.indexOf('<think>');
  if (open >= 0) s = s.slice(0, open);
  return s;
}
function fenceByRegex(text: string): string {
  const t = text.trim();
  const m = /^(`{3,}|~{3,})[^\n]*\n([\s\S]*?)\n?\1$/.exec(t);
  return m ? m[2].trim() : t;
}

/** Deterministic pseudo-random strings over a small alphabet (xorshift). */
function* randomStrings(alphabet: string[], count: number, maxLen: number): Generator<string> {
  let x = 2463534242;
  const next = () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
  for (let i = 0; i < count; i++) {
    const n = Math.floor(next() * maxLen);
    let s = '';
    for (let k = 0; k < n; k++) s += alphabet[Math.floor(next() * alphabet.length)];
    yield s;
  }
}

describe('audit: linear cleaners agree with the regex rules', () => {
  it('stripThink', () => {
    for (const s of randomStrings(['<think>', '</think>', 'a', ' ', '\n', '<', '>'], 20000, 12)) expect(stripThink(s), JSON.stringify(s)).toBe(thinkByRegex(s));
  });
  it('stripCodeFence', () => {
    for (const s of randomStrings(['`', '`', '~', '\n', 'a', ' ', 'json'], 40000, 14)) expect(stripCodeFence(s), JSON.stringify(s)).toBe(fenceByRegex(s));
  });
});

describe('audit: pathological outputs', () => {
  it('parses 200,000 nested brackets without overflowing the stack', () => {
    const deep = '['.repeat(200000) + ']'.repeat(200000);
    expect(parseT2r(deep)).toMatchObject({ boxes: [], unparseable: true });
    expect(parseT2r(JSON.parse(deep))).toMatchObject({ boxes: [], unparseable: true });
    expect(parseR2t(JSON.parse(deep)).text).toBe('');
  });
  it('cleans 30,000 unclosed <think> tags and 100,000 backticks in linear time', () => {
    const t0 = performance.now();
    expect(cleanModelOutput('<think>'.repeat(30000) + 'x').text).toBe('');
    expect(cleanModelOutput('```' + '`'.repeat(100000)).text.length).toBe(100003);
    // The regex forms took 8 s and 13 s here; the scans take milliseconds.
    expect(performance.now() - t0).toBeLessThan(2000);
  });
  it('scores and exports a run whose output field holds JSON nested too deeply to write back', async () => {
    const q = { image_path: 'a.jpg', task_type: 'T2R', question: 'q', bbox: [[0, 0, 10, 10]], GT: { bbox: [0, 0, 10, 10], text: 't' } };
    const r2 = { image_path: 'a.jpg', task_type: 'R2T', question: 'r', bbox: [0, 0, 10, 10], GT: 'x' };
    const deep = '['.repeat(100000) + ']'.repeat(100000);
    const line = (o: object) => JSON.stringify(o).slice(0, -1) + `, "prediction": ${deep}}`;
    const session = await BenchSession.open(new MemorySource('TABench', { 'TABench-abs.jsonl': JSON.stringify(q) + '\n' + JSON.stringify(r2) + '\n' }));
    await session.addPredictions({ source: new MemorySource('p', { 'm.jsonl': line(q) + '\n' + JSON.stringify({ ...r2, prediction: 'x' }) + '\n' }), path: 'm.jsonl', name: 'm' });
    const results = await session.score(session.resolveProtocol());
    // A line nested deeper than MAX_JSON_DEPTH (io/json.ts) is refused as that line when it is
    // read, in every benchmark: named by number, its query left without a prediction.
    expect(results[0].warnings.map((w) => (typeof w === 'string' ? w : JSON.stringify(w))).join('\n')).toMatch(/line 1: nested deeper than 512 levels/);
    expect(results[0].counts.unparseable_outputs ?? 0).toBe(0);
    const lines = session.caseLines(results);
    expect(lines).toHaveLength(2);
    // The other line scores: R2T "x" = GT "x".
    expect(results[0].counts.unparseable_outputs ?? 0).toBe(0);
    expect(lines.map((l) => JSON.parse(l).score)).toContain(1);
  });
});
