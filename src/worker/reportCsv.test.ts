import { describe, expect, it } from 'vitest';
import { buildReport } from '../core';
import { reportCsv } from './reportCsv';

describe('reportCsv', () => {
  it('writes one row per metric, one column per model, at full precision, quoting as RFC 4180 asks', () => {
    const r = buildReport('ltb', { name: 'mmocr-1.0.1', options: { iou: 0.5 } }, { cases: 1, images: 1 }, [
      { model: 'a, "quoted"', metrics: { 'hard/hmean': 0.7777777777777777, 'norm/hmean': 0.5 }, counts: {}, warnings: [] },
      { model: 'b', metrics: { 'hard/hmean': 0.1 }, counts: {}, warnings: [] },
    ]);
    const rows = reportCsv(r).split('\r\n');
    expect(rows[0]).toBe('benchmark,protocol,options,metric,"a, ""quoted""",b');
    expect(rows[1]).toBe('ltb,mmocr-1.0.1,"{""iou"":0.5}",hard/hmean,0.7777777777777777,0.1');
    // A metric one model lacks is an empty cell, never a zero.
    expect(rows[2]).toBe('ltb,mmocr-1.0.1,"{""iou"":0.5}",norm/hmean,0.5,');
    expect(rows[3]).toBe('');
  });
});

describe('reportCsv and spreadsheet formulas', () => {
  it('puts a quote before text cells that a spreadsheet would run (= + - @ tab CR), and leaves negative metric values numbers', () => {
    const names = ['=HYPERLINK("http://x","y")', '+1+1', '-2+3', '@SUM(A1)', '\tcmd', '\rcmd', 'plain-name'];
    const r = buildReport('ltb', { name: 'mmocr-1.0.1', options: {} }, { cases: 1, images: 1 }, names.map((model) => ({ model, metrics: { 'hard/dhmean': -0.25, '=cmd|x': 1 }, counts: {}, warnings: [] })));
    const rows = reportCsv(r).split('\r\n');
    expect(rows[0]).toBe(`benchmark,protocol,options,metric,"'=HYPERLINK(""http://x"",""y"")",'+1+1,'-2+3,'@SUM(A1),'\tcmd,"'\rcmd",plain-name`);
    expect(rows[1]).toBe('ltb,mmocr-1.0.1,{},hard/dhmean,' + names.map(() => '-0.25').join(','));
    expect(rows[2]).toBe("ltb,mmocr-1.0.1,{},'=cmd|x," + names.map(() => '1').join(','));
  });
});
