import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { buildReport, type ReportSection } from '../../core';
import { LTB_REPORT_LAYOUT } from '../../core/benchmarks/ltb/reportLayout';
import { LayoutSection } from './LayoutSections';

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
