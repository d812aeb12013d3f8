import { describe, expect, it } from 'vitest';
import type { Progress } from '../model';
import { chunkedSource } from '../../../test/chunkedSource';
import { MemorySource, type FileSource } from './fileSource';
import { forEachJsonObjectLine, forEachLine } from './text';

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
});

const chunked = (text: string, chunk: number) => chunkedSource({ 'f.jsonl': text }, chunk);

describe('streamed line reading', () => {
  it('gives the same lines as a whole read, however the chunks cut lines and multi-byte characters', async () => {
    const text = '\uFEFF{"t":"古籍 — ok"}\r\n\n' + `{"long":"${'x'.repeat(100_000)}"}\n` + 'tail without newline 文';
    const whole: [string, number][] = [];
    await forEachLine(new MemorySource('m', { 'f.jsonl': text }), 'f.jsonl', (l, n) => whole.push([l, n]));
    for (const size of [1, 2, 3, 7, 4096]) {
      const got: [string, number][] = [];
      await forEachLine(chunked(text, size), 'f.jsonl', (l, n) => got.push([l, n]));
      expect(got).toEqual(whole);
    }
    expect(whole.map((w) => w[1])).toEqual([1, 2, 3, 4]);
    expect(whole[0][0]).toBe('{"t":"古籍 — ok"}'); // the BOM is dropped, the CR too
    expect(whole[2][0].length).toBe(100_000 + 11);
  });

  it('joins a line that spans thousands of chunks in linear time (pieces, not repeated concatenation)', async () => {
    // 8 MB in 1 KB chunks: 8,000 chunks. Concatenating per chunk would copy ~32 GB.
    const line = 'y'.repeat(8 << 20);
    let got = 0;
    await forEachLine(chunked(line + '\nz\n', 1024), 'f.jsonl', (l) => (got += l.length));
    expect(got).toBe((8 << 20) + 1);
  });

  it('reports bytes read as it goes, ending at the file size, and stops when the signal aborts', async () => {
    const text = '{"a":1}\n'.repeat(1 << 20); // 8 MiB
    const src = chunked(text, 64 << 10);
    const seen: Progress[] = [];
    await forEachLine(src, 'f.jsonl', () => undefined, { progress: (p) => seen.push(p) });
    expect(seen[0]).toMatchObject({ phase: 'read', done: 0, total: 8 << 20, unit: 'bytes', label: 'f.jsonl' });
    expect(seen.at(-1)).toMatchObject({ done: 8 << 20, total: 8 << 20 });
    expect(seen.length).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < seen.length; i++) expect(seen[i].done).toBeGreaterThanOrEqual(seen[i - 1].done);

    const ac = new AbortController();
    let lines = 0;
    const run = forEachLine(src, 'f.jsonl', () => {
      if (++lines === 1000) ac.abort();
    }, { signal: ac.signal });
    await expect(run).rejects.toThrow();
    expect(lines).toBeLessThan(1 << 20);
  });
});

/**
 * A file whose line 2 is `mib` MiB of "a" — streamed as the same 1 MiB chunk again and again, so
 * the test holds 1 MiB however long the line is.
 */
function longLineSource(mib: number): FileSource {
  const a = new Uint8Array(1 << 20).fill(0x61);
  const enc = new TextEncoder();
  return {
    label: 'long',
    list: () => [{ path: 'f.jsonl', size: mib * 2 ** 20 + 20 }],
    read: async () => {
      throw new Error('a reader read the whole file instead of streaming it');
    },
    async *stream() {
      yield enc.encode('{"n":1}\n');
      for (let i = 0; i < mib; i++) yield a;
      yield enc.encode('\n{"n":3}\n[4]\n');
    },
  };
}

describe('a line too long to be a string', () => {
  it('costs that line, not the file: a 513 MiB line (more than a JavaScript string holds) is named, the lines around it are read', async () => {
    const seen: unknown[] = [];
    const bad: string[] = [];
    await forEachJsonObjectLine(longLineSource(513), 'f.jsonl', (o, n) => seen.push([o, n]), (n, why) => bad.push(`line ${n}: ${why}`));
    expect(seen).toEqual([
      [{ n: 1 }, 1],
      [{ n: 3 }, 3],
    ]);
    expect(bad).toEqual(['line 2: 513 MiB long, more than the 512 MiB a JavaScript string holds', 'line 4: not a JSON object']);
  });

  it('without a handler, forEachLine stops with an error that names the line', async () => {
    await expect(forEachLine(longLineSource(3), 'f.jsonl', () => undefined, undefined, { maxLineBytes: 2 << 20 })).rejects.toThrow(
      'f.jsonl: line 2: 3 MiB long, more than the 2 MiB a line may hold',
    );
  });

  it('a RangeError while a line is handled (out of stack, "Invalid string length") costs that line', async () => {
    const src = new MemorySource('t', { 'a.jsonl': '{"a":1}\n{"a":2}\n{"a":3}\n' });
    const seen: number[] = [];
    const bad: string[] = [];
    await forEachJsonObjectLine(
      src,
      'a.jsonl',
      (o) => {
        if (o.a === 2) 'x'.repeat(2 ** 30); // the engine's own "Invalid string length"
        seen.push(o.a as number);
      },
      (n, why) => bad.push(`line ${n}: ${why}`),
    );
    expect(seen).toEqual([1, 3]);
    expect(bad).toEqual(['line 2: cannot be read (Invalid string length)']);
  });

  it('refuses a line nested 100,000 deep as that line', async () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    const src = new MemorySource('t', { 'a.jsonl': `{"a":1}\n{"a":${deep}}\n{"a":3}\n` });
    const seen: unknown[] = [];
    const bad: string[] = [];
    await forEachJsonObjectLine(src, 'a.jsonl', (o) => seen.push(o.a), (n, why) => bad.push(`line ${n}: ${why}`));
    expect(seen).toEqual([1, 3]);
    expect(bad).toEqual(['line 2: nested deeper than 512 levels']);
  });
});
