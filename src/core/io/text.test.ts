import { describe, expect, it } from 'vitest';
import { MemorySource } from './fileSource';
import { forEachJsonObjectLine, readJsonl } from './text';

describe('JSONL reading', () => {
  const src = new MemorySource('t', { 'a.jsonl': '\uFEFF{"a":1}\r\n\n[1,2]\nnot json\n{"b":2}' });

  it('gives each object with its 1-based line number, and reports every other non-blank line', async () => {
    const seen: [unknown, number][] = [];
    const bad: string[] = [];
    await forEachJsonObjectLine(src, 'a.jsonl', (o, n) => seen.push([o, n]), (n, why) => bad.push(`line ${n}: ${why}`));
    expect(seen).toEqual([
      [{ a: 1 }, 1],
      [{ b: 2 }, 5],
    ]);
    expect(bad).toEqual(['line 3: not a JSON object', 'line 4: not valid JSON']);
  });

  it('readJsonl keeps arrays as values and counts only unparsable lines as malformed', async () => {
    const r = await readJsonl(src, 'a.jsonl');
    expect(r.rows.map((x) => x.line)).toEqual([1, 3, 5]);
    expect(r.malformed).toBe(1);
    expect(r.warnings).toEqual(['line 4: not valid JSON']);
  });
});
