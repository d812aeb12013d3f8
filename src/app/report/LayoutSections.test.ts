import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { buildReport, type PlotSpec, type ReportSection } from '../../core';
import { LTB_REPORT_LAYOUT } from '../../core/benchmarks/ltb/reportLayout';
import { barSeries } from './LayoutPlots';
import { LayoutSection } from './LayoutSections';
import { BarChart } from './plots';

const report = buildReport('ltb', { name: 'mmocr-1.0.1', options: { iou: 0.5 } }, { cases: 1, images: 1 }, [
  { model: 'A', metrics: { 'hard/hmean': 0.5, 'hard/threshold': 0.6, 'norm/hmean': 0.25 }, counts: {}, warnings: [] },
  { model: 'B', metrics: { 'hard/hmean': 0.75 }, counts: {}, warnings: [] },
]);

/** The (data-model, data-key, text) of every number cell, in document order. */
const cells = (html: string) => [...html.matchAll(/<td class="num" title="[^"]*" data-model="([^"]+)" data-key="([^"]+)">([^<]*)<\/td>/g)].map((m) => [m[1], m[2], m[3]]);

describe('one report view renders any layout', () => {
  it('draws the LTB split grid with a column group per model and only the splits reported', () => {
    const html = renderToStaticMarkup(createElement(LayoutSection, { report: report, section: LTB_REPORT_LAYOUT.sections[0] }));
    expect(html).toContain('<caption>hmean / precision / recall × 100 per split file, each at its own best score threshold (thr)</caption>');
    expect(html.match(/<th scope="row"[^>]*>([^<]+)</g)!.map((t) => t.replace(/.*>/, '').replace('<', ''))).toEqual(['Hard', 'Norm']);
    const c = cells(html);
    expect(c.slice(0, 8)).toEqual([
      ['A', 'hard/hmean', '50.00'],
      ['A', 'hard/precision', '—'],
      ['A', 'hard/recall', '—'],
      ['A', 'hard/threshold', '0.60'],
      ['B', 'hard/hmean', '75.00'],
      ['B', 'hard/precision', '—'],
      ['B', 'hard/recall', '—'],
      ['B', 'hard/threshold', '—'],
    ]);
    expect(html).toContain('class="summary-row"');
  });

  it('draws a grid per model with derived rows, and a metric-rows table', () => {
    const r = buildReport('tabench', { name: 'p', options: {} }, { cases: 1, images: 1 }, [
      { model: 'M', metrics: { 'category/b/overall': 0.5, 'category/a/overall': 1, overall: 0.75 }, counts: {}, warnings: [] },
    ]);
    const grid: ReportSection = { kind: 'grid', caption: 'per category — {model}', corner: 'category', rows: { fromPrefix: 'category' }, columns: [{ key: 'overall', label: 'Overall' }], perModel: 'table' };
    const html = renderToStaticMarkup(createElement(LayoutSection, { report: r, section: grid }));
    expect(html).toContain('<caption>per category — <bdi>M</bdi></caption>'); // model names are bidi-isolated
    expect(cells(html)).toEqual([
      ['M', 'category/a/overall', '100.00'],
      ['M', 'category/b/overall', '50.00'],
    ]);
    const keys = renderToStaticMarkup(createElement(LayoutSection, { report: r, section: { kind: 'keys', caption: 'main', rows: [{ key: 'overall', label: 'Overall' }, { key: 'absent', label: 'x' }] } }));
    expect(cells(keys)).toEqual([['M', 'overall', '75.00']]);
  });
});

describe('an LTB split with no GT and no predictions (gt 0, pred 0: MMOCR reports hmean 100)', () => {
  const split = (gt: number, pred: number, hmean: number) => ({ 'blurred/gt': gt, 'blurred/pred': pred, 'blurred/hmean': hmean, 'blurred/precision': hmean, 'blurred/recall': hmean, 'blurred/threshold': 0.3 });
  const two = (a: Record<string, number>, b: Record<string, number>) =>
    buildReport('ltb', { name: 'mmocr-1.0.1', options: { iou: 0.5 } }, { cases: 1, images: 1 }, [
      { model: 'A', metrics: a, counts: {}, warnings: [] },
      { model: 'B', metrics: b, counts: {}, warnings: [] },
    ]);
  const bars = LTB_REPORT_LAYOUT.plots.find((p): p is Extract<PlotSpec, { kind: 'bars' }> => p.kind === 'bars')!;
  const blurred = [{ key: 'blurred', label: 'Blurred' }];

  it('the table says "no data" once for the row when no model has data there, the official values in its tooltip', () => {
    const html = renderToStaticMarkup(createElement(LayoutSection, { report: two(split(0, 0, 1), split(0, 0, 1)), section: LTB_REPORT_LAYOUT.sections[0] }));
    const empty = [...html.matchAll(/<td class="num muted empty-row" colSpan="(\d+)"[^>]*data-empty="true" title="([^"]*)">([^]*?)<\/td>/g)];
    expect(empty).toHaveLength(1);
    expect(empty[0][1]).toBe('8');
    expect(empty[0][3].replace(/<[^>]+>/g, '')).toBe('no data (gt 0, pred 0)');
    expect(empty[0][2]).toContain('A: blurred/hmean = 1');
    expect(empty[0][2]).toContain('B: blurred/hmean = 1');
    expect(cells(html).filter(([, k]) => k.startsWith('blurred/'))).toEqual([]);
  });

  it('a model with data keeps its numbers; the one without says "no data" once over its columns', () => {
    const html = renderToStaticMarkup(createElement(LayoutSection, { report: two(split(0, 0, 1), split(0, 2, 0)), section: LTB_REPORT_LAYOUT.sections[0] }));
    expect(html.match(/data-empty="true"/g)).toHaveLength(1);
    expect(html).toMatch(/colSpan="4" data-model="A" data-key="blurred\/hmean" data-empty="true"/);
    expect(cells(html).filter(([m, k]) => m === 'B' && k.startsWith('blurred/'))).toEqual([
      ['B', 'blurred/hmean', '0.00'],
      ['B', 'blurred/precision', '0.00'],
      ['B', 'blurred/recall', '0.00'],
      ['B', 'blurred/threshold', '0.30'],
    ]);
  });

  it('the chart draws no bar at 100 for it, but a "no data" mark; a split with data keeps its bar', () => {
    const a = barSeries(bars, 'A', { ...split(0, 0, 1), 'hard/gt': 3, 'hard/pred': 2, 'hard/hmean': 0.8 }, [...blurred, { key: 'hard', label: 'Hard' }]);
    expect(a.values).toEqual([undefined, 0.8]);
    expect(a.noData).toEqual(['gt 0, pred 0', undefined]);
    // Zero predictions against GT is a real 0, not "no data".
    const b = barSeries(bars, 'B', split(4, 0, 0), blurred);
    expect(b.values).toEqual([0]);
    expect(b.noData).toBeUndefined();
    const svg = renderToStaticMarkup(createElement(BarChart, { title: 't', metric: 'blurred/hmean', groups: [{ label: 'Blurred' }], series: [a, { ...a, name: 'A2' }].map((s) => ({ ...s, values: s.values.slice(0, 1), noData: s.noData?.slice(0, 1) })) }));
    expect(svg.match(/data-no-data="true"/g)).toHaveLength(2);
    expect(svg).toContain('no data</text>');
    expect(svg).toContain('A · Blurred: no data (gt 0, pred 0)');
  });
});
