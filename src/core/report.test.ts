import { describe, expect, it } from 'vitest';
import { buildReport, parseReport, serializeReport } from './report';
import { caseLine, parseCaseAnalysis, serializeCaseLine } from './caseExport';
import { levenshtein, codePointLength, charDiff } from './text/levenshtein';

describe('report.json', () => {
  it('keeps rates unrounded and round-trips through its schema', () => {
    const r = buildReport('ltb', { name: 'mmocr-1.0.1', options: { iou: 0.5 } }, { cases: 2, images: 2 }, [
      { model: 'm', metrics: { 'hard/hmean': 2 / 3 }, counts: { cases: 2 }, warnings: [] },
    ]);
    const back = parseReport(serializeReport(r));
    expect(back.models.m.metrics['hard/hmean']).toBe(2 / 3);
    expect(back.schema).toBe('benchlens.report/1');
  });
});

describe('report.json dataset block', () => {
  it('carries dataset warnings only when there are some', () => {
    const p = { name: 'x', options: {} };
    expect(buildReport('ltb', p, { cases: 1, images: 1, warnings: [] }, []).dataset).toEqual({ cases: 1, images: 1 });
    expect(buildReport('ltb', p, { cases: 1, images: 1, warnings: ['img_3.jpg: image missing'] }, []).dataset.warnings).toEqual([
      'img_3.jpg: image missing',
    ]);
  });
});

describe('case_analysis.jsonl', () => {
  it('drops the local image location and reads back qa, listing bad lines by number', () => {
    const line = caseLine(
      'tabench',
      'm',
      { case_id: 'q1', image_path: 'a.jpg', image_file: 'x/a.jpg', facets: {}, score: 0, outcome: 'fail', gt: [], pred: [], matches: [], errors: [] },
      { status: 'gt_wrong', note: 'box too small', tags: ['gt_wrong'] },
    );
    const text = serializeCaseLine(line) + '\n{oops\n';
    const parsed = parseCaseAnalysis(text);
    expect(parsed.lines[0]).not.toHaveProperty('image_file');
    expect(parsed.lines[0].qa).toEqual({ status: 'gt_wrong', note: 'box too small', tags: ['gt_wrong'] });
    expect(parsed.warnings).toEqual(['line 2: not valid JSON']);
  });
});

describe('code-point text helpers', () => {
  it('counts an astral character as one', () => {
    expect(codePointLength('\u{20000}a')).toBe(2);
    expect(levenshtein('\u{20000}', 'b')).toBe(1);
    expect(levenshtein('kitten', 'sitting')).toBe(3);
  });
  it('aligns characters for the diff view', () => {
    expect(charDiff('abc', 'axc').map((o) => o.op)).toEqual(['equal', 'replace', 'equal']);
  });
});
