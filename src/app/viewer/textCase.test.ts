import { describe, expect, it } from 'vitest';
import { nodeFolderSource } from '../../../cli/nodeSource';
import { HAS_SHARED, shared } from '../../../test/shared';
import { makeDemo as makeChroniclesDemo } from '../../core/benchmarks/chronicles/demo';
import type { CaseRecord } from '../../core/model';
import { BenchSession } from '../../core/session';
import { flattenSections, HEADER_HEIGHT, LINE_HEIGHT, ONE_LINE_CHARS, panelSections, ROW_HEIGHT, rowHeight, visibleRange } from './rows';
import { extractionRule, otherDetails, rawAnswer, splitThinking, textComparison } from './textCase';

const rec = (over: Partial<CaseRecord>): CaseRecord => ({ case_id: 'q', image_path: null, facets: {}, score: null, outcome: 'fail', gt: [], pred: [], matches: [], errors: [], ...over });

describe('text comparison', () => {
  it('uses the normalised strings and official numbers from detail', () => {
    const c = textComparison(rec({ detail: { gt_norm: '王贞UNK人', pred_norm: '王贞人', ned: 0.5 } }))!;
    expect(c.normalised).toBe(true);
    expect(c.distance).toBe(3);
    expect(c.ned).toBeCloseTo(3 / 6, 12);
    expect(c.officialNed).toBe(0.5);
    expect(c.ops.map((o) => o.op)).toEqual(['equal', 'delete', 'equal']);
  });

  it('counts an astral character as one code point in CER', () => {
    const c = textComparison(rec({ gt: [{ id: 0, state: 'fn', text: 'a\u{20000}' }], pred: [{ id: 0, state: 'fp', text: 'ab' }] }))!;
    expect(c.distance).toBe(1);
    expect(c.cer).toBe(0.5);
  });

  it('is not a text case when the GT is a set of shapes', () => {
    expect(textComparison(rec({ gt: [{ id: 0, state: 'tp', text: 'A', shape: { type: 'box', box: [0, 0, 1, 1] } }], pred: [{ id: 0, state: 'tp', text: 'A' }] }))).toBeNull();
  });
});

describe('adapter detail keys', () => {
  it('reads TABench R2T records: British-spelt normalised strings, raw_output, parse rule and steps', () => {
    const r = rec({
      gt: [{ id: 0, state: 'info', text: "USINGER'S", shape: { type: 'box', box: [0, 0, 5, 5] } }],
      pred: [{ id: 0, state: 'fp', text: "USINGER'" }],
      detail: { gt_normalised: "USINGER'S", pred_normalised: "USINGER'", cer: 1 / 9, raw_output: "<think>x</think>USINGER'", parse_rule: 'plain-text', parse_steps: ['strip-think'], diff: [], edit_distance: 1, line: 2 },
    });
    const c = textComparison(r)!;
    expect([c.gt, c.pred, c.distance, c.officialCer]).toEqual(["USINGER'S", "USINGER'", 1, 1 / 9]);
    expect(extractionRule(r)).toBe('plain-text; steps: strip-think');
    expect(rawAnswer(r)).toEqual({ thinking: 'x', answer: "USINGER'" });
    expect(otherDetails(r)).toEqual([['line', '2']]);
  });

  it('reads Chronicles records: answer, thinking, judged extract and extraction path', () => {
    const r = rec({ detail: { answer: '现代汉字：占', thinking: '嗯', judged: 'stored', extraction: { ok: true, path: 'prefix 现代汉字', thinking: 'none' }, extract: { char: '占' } } });
    expect(rawAnswer(r)).toEqual({ thinking: '嗯', answer: '现代汉字：占' });
    expect(extractionRule(r)).toBe('judged the stored extract; extraction path: prefix 现代汉字');
  });
});

describe('raw answer', () => {
  it('splits a closed think block and a lone closing tag from the answer', () => {
    expect(splitThinking('<think>hmm</think>\n现代汉字：占')).toEqual({ thinking: 'hmm', answer: '现代汉字：占' });
    expect(splitThinking('reasoning here</THINK> final')).toEqual({ thinking: 'reasoning here', answer: 'final' });
    expect(splitThinking('plain')).toEqual({ thinking: null, answer: 'plain' });
  });

  it('prefers the stored thinking field and lists other details as text', () => {
    const r = rec({ detail: { thinking: 't', raw_answer: 'a', rule: 'prefix', detection_f1: 1, extract: { char: 'x' } } });
    expect(rawAnswer(r)).toEqual({ thinking: 't', answer: 'a' });
    expect(otherDetails(r)).toEqual([['detection_f1', '1']]);
  });
});

describe('panel rows', () => {
  it('lists shapeless instances too and windows the list', () => {
    const r = rec({ gt: [{ id: 0, state: 'fn', text: 'x' }], pred: Array.from({ length: 100 }, (_, i) => ({ id: i, state: 'fp' as const })) });
    const sections = panelSections([{ index: 0, model: 'm', record: r }]);
    expect(sections.map((s) => s.rows.length)).toEqual([1, 100]);
    expect(sections[0].rows[0].hasShape).toBe(false);
    const flat = flattenSections(sections);
    expect(flat.entries).toHaveLength(103);
    const [from, to] = visibleRange(flat.entries, 1000, 300);
    expect(to - from).toBeLessThan(12);
    expect(flat.entries[from].top).toBeLessThanOrEqual(1000);
    expect(flat.entries[to - 1].top + flat.entries[to - 1].height).toBeGreaterThanOrEqual(1300);
  });

  it('a row with an error class gets two more lines, a long reason one more; plain rows keep their height', () => {
    expect(rowHeight(false, null)).toBe(ROW_HEIGHT);
    expect(rowHeight(false, 'short')).toBe(ROW_HEIGHT);
    expect(rowHeight(true, null)).toBe(ROW_HEIGHT + 2 * LINE_HEIGHT);
    expect(rowHeight(true, 'x'.repeat(ONE_LINE_CHARS + 1))).toBe(ROW_HEIGHT + 3 * LINE_HEIGHT);
    const r = rec({ gt: [{ id: 0, state: 'fn', error: 'missed' }, { id: 1, state: 'tp' }], pred: [] });
    const flat = flattenSections(panelSections([{ index: 0, model: 'm', record: r }]), (row) => rowHeight(row.inst.error !== undefined, null));
    const [, missed, plain] = flat.entries;
    expect([missed.top, missed.height, plain.top, plain.height]).toEqual([HEADER_HEIGHT, ROW_HEIGHT + 2 * LINE_HEIGHT, HEADER_HEIGHT + ROW_HEIGHT + 2 * LINE_HEIGHT, ROW_HEIGHT]);
    // The window still finds rows by their own tops.
    const [from, to] = visibleRange(flat.entries, missed.top + missed.height + 1, 10);
    expect(flat.entries.slice(from, to).map((e) => e.key)).toEqual([plain.key]);
  });

  it('side by side: GT once (naming whose states it shows), then a predictions section per model', () => {
    const a = rec({ gt: [{ id: 0, state: 'fn' }], pred: [{ id: 0, state: 'fp' }] });
    const b = rec({ gt: [{ id: 0, state: 'tp' }], pred: [{ id: 0, state: 'tp' }, { id: 1, state: 'fp' }] });
    const sections = panelSections([{ index: 0, model: 'a', record: a }, { index: 1, model: 'b', record: b }], 'a');
    expect(sections.map((s) => s.title)).toEqual(['Ground truth (1) — states vs a', 'Predictions — a (1)', 'Predictions — b (2)']);
    expect(sections[0].rows[0].inst.state).toBe('fn');
    expect(sections[2].rows.map((r) => r.key)).toEqual(['1:pred:0', '1:pred:1']);
  });
});

describe('Chronicles recognition cases (demo and chronicles-mini): the comparison agrees with the score', () => {
  const check = async (session: BenchSession) => {
    const results = await session.score(session.resolveProtocol());
    const recognition = results.flatMap((r) => r.cases).filter((c) => c.task === 'recognition' && c.detail?.gt_char);
    expect(recognition.length).toBeGreaterThan(0);
    for (const c of recognition) {
      const cmp = textComparison(c)!;
      expect(cmp, c.case_id).not.toBeNull();
      // The judged strings, not the target box's text against an empty GT.
      expect(cmp.gt, c.case_id).not.toBe('');
      expect(cmp.distance === 0, c.case_id).toBe(c.score === 1);
    }
    return recognition;
  };

  it('demo: a pass shows GT = prediction, distance 0; a fail a non-zero distance', async () => {
    const demo = await makeChroniclesDemo();
    const session = await BenchSession.open(demo.source);
    await session.addBundledPredictions();
    const cases = await check(session);
    const pass = cases.find((c) => c.score === 1)!;
    const cmp = textComparison(pass)!;
    expect([cmp.gt, cmp.pred, cmp.distance, cmp.cer, cmp.ned]).toEqual([pass.detail!.gt, pass.detail!.pred, 0, 0, 0]);
  });

  it.skipIf(!HAS_SHARED)('chronicles-mini with its bundled results', async () => {
    const session = await BenchSession.open(nodeFolderSource(shared('data/chronicles-mini')));
    await session.addBundledPredictions();
    await check(session);
  });
});
