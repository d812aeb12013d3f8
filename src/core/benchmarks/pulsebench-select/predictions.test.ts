import { describe, expect, it } from 'vitest';
import { MemorySource } from '../../io/fileSource';
import { contentOf, selectedOf } from './items';
import { parsePredictionFile } from './predictions';

const KNOWN = new Set(['s1', 's2', '7']);
const parse = (lines: (string | object)[]) =>
  parsePredictionFile(
    new MemorySource('p', { 'p.jsonl': lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n' }),
    'p.jsonl',
    KNOWN,
  );

describe('PulseBench-Select prediction fields', () => {
  it('reads selected as false only for false, 0, "false", "no", "0"', () => {
    for (const v of [false, 0, 'false', 'no', '0', 'False', ' NO ']) expect(selectedOf(v), JSON.stringify(v)).toBe(false);
    for (const v of [undefined, null, true, 1, 'true', 'yes', 'x', 2]) expect(selectedOf(v), JSON.stringify(v)).toBe(true);
  });

  it('reads content when present and not null (empty stays empty), else text, non-strings as text', () => {
    expect(contentOf({ content: '', text: 'Fever' })).toBe('');
    expect(contentOf({ content: null, text: 'Fever' })).toBe('Fever');
    expect(contentOf({ text: 'Fever' })).toBe('Fever');
    expect(contentOf({ content: 56 })).toBe('56');
    expect(contentOf({})).toBe('');
  });
});

describe('PulseBench-Select prediction files', () => {
  it('reads one sample per line under selected_items, items or predictions', async () => {
    const { preds, warnings } = await parse([
      { sample_id: 's1', selected_items: [{ content: 'Yes', page: 2 }, { text: 'No' }] },
      { sample_id: 's2', items: [{ content: 'A' }] },
      { sample_id: 7, predictions: [{ content: 'B', selected: 'no' }] },
    ]);
    expect(warnings).toEqual([]);
    expect(preds.bySample.get('s1')!.map((p) => [p.content, p.page, p.selected])).toEqual([
      ['Yes', 2, true],
      ['No', 1, true],
    ]);
    expect(preds.bySample.get('s2')!.map((p) => p.content)).toEqual(['A']);
    // sample ids compare as strings: 7 is "7".
    expect(preds.bySample.get('7')!.map((p) => [p.content, p.selected])).toEqual([['B', false]]);
  });

  it('reads one item per line and concatenates several lines of a sample in file order', async () => {
    const { preds } = await parse([
      { sample_id: 's1', content: 'one' },
      { sample_id: 's2', content: 'other' },
      { sample_id: 's1', text: 'two', selected: 0 },
      { sample_id: 's1', selected_items: [{ content: 'three' }] },
    ]);
    expect(preds.bySample.get('s1')!.map((p) => [p.content, p.selected, p.line])).toEqual([
      ['one', true, 1],
      ['two', false, 3],
      ['three', true, 4],
    ]);
  });

  it('counts a bare {sample_id} line as "no predictions", not as an empty item', async () => {
    const { preds } = await parse([{ sample_id: 's1' }]);
    expect(preds.bySample.get('s1')).toEqual([]);
  });

  it('ignores unknown sample ids with one warning per id', async () => {
    const { preds, warnings, knownLines } = await parse([
      { sample_id: 's1', content: 'x' },
      { sample_id: 'zz', content: 'a' },
      { sample_id: 'zz', content: 'b' },
    ]);
    expect(warnings).toEqual(['line 2: unknown sample_id zz']);
    expect(preds.unknownSamples).toBe(1);
    expect(preds.bySample.has('zz')).toBe(false);
    expect(knownLines).toBe(1);
  });

  it('counts and lists malformed lines, keeps the rest', async () => {
    const { preds, warnings } = await parse([
      '{"sample_id": "s1", "content": "ok"}',
      '{not json',
      '[1, 2]',
      '{"content": "no id"}',
      '{"sample_id": "s1", "items": "Yes"}',
      '',
      '{"sample_id": "s2", "items": [{"content": "p", "page": "x"}, 3]}',
    ]);
    expect(preds.malformedLines).toBe(4);
    expect(warnings).toEqual([
      'line 2: not valid JSON',
      'line 3: not a JSON object',
      'line 4: no sample_id',
      'line 5: items is not a list',
      'line 7: items[0] has page "x", not an integer; left out',
      'line 7: items[1] is not an object; left out',
    ]);
    expect(preds.bySample.get('s1')!.map((p) => p.content)).toEqual(['ok']);
    expect(preds.bySample.get('s2')).toEqual([]);
  });
});
