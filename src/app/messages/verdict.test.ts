import { describe, expect, it } from 'vitest';
import { MemorySource } from '../../core/io/fileSource';
import { ADAPTERS } from '../../core/benchmarks/registry';
import { detectionFailureMessage } from '../../core/session';
import { parseDetectionFailure, splitVerdict } from './verdict';

describe('splitVerdict', () => {
  it('puts what precedes the first " — " first, the rest as detail', () => {
    const m = 'Not LTB predictions: q.jsonl is a TABench predictions file — nothing to score — no record names an image (41 malformed record(s))';
    expect(splitVerdict(m)).toEqual({
      verdict: 'Not LTB predictions: q.jsonl is a TABench predictions file',
      detail: 'nothing to score — no record names an image (41 malformed record(s))',
    });
  });

  it('a message without a detail is all verdict', () => {
    expect(splitVerdict('empty.jsonl: no prediction lines')).toEqual({ verdict: 'empty.jsonl: no prediction lines', detail: '' });
  });
});

describe('parseDetectionFailure', () => {
  it('reads the core\'s "no recognisable benchmark" message as a heading and one layout per benchmark', () => {
    const msg = detectionFailureMessage(new MemorySource('holiday-photos', { 'a.jpg': 'x', 'notes.txt': 'y' }));
    const parsed = parseDetectionFailure(msg);
    expect(parsed?.heading).toBe('no recognisable benchmark in "holiday-photos" (2 files)');
    expect(parsed?.layouts.map((l) => l.benchmark)).toEqual(ADAPTERS.map((a) => a.title));
    expect(parsed?.layouts.map((l) => l.expects)).toEqual(ADAPTERS.map((a) => a.expects));
  });

  it('is null for any other message', () => {
    expect(parseDetectionFailure('dataset x: not a folder')).toBeNull();
  });
});
