import { describe, expect, it } from 'vitest';
import type { CaseRecord, Instance } from '../../core/model';
import { buildScene, countByState, errorOrder, labelOf, panesFor } from './scene';
import { explain, explanationText } from './explain';
import { displayText, glyphRuns } from './glyphs';
import { actionFor, isTypingTarget, KEY_BINDINGS } from './keys';
import { styleFor } from './style';

const box = (x0: number, y0: number, x1: number, y1: number) => ({ type: 'box' as const, box: [x0, y0, x1, y1] as [number, number, number, number] });
const rec = (gt: Instance[], pred: Instance[], id = 'c1'): CaseRecord => ({ case_id: id, image_path: null, facets: {}, score: null, outcome: 'partial', gt, pred, matches: [], errors: [], width: 500, height: 400 });

describe('scene', () => {
  const r = rec(
    [
      { id: 0, shape: box(10, 300, 50, 320), state: 'fn' },
      { id: 1, shape: box(10, 10, 50, 30), state: 'tp' },
      { id: 2, state: 'fn', text: 'no geometry' },
    ],
    [
      { id: 0, shape: box(200, 10, 250, 30), state: 'fp' },
      { id: 1, shape: box(12, 12, 50, 30), state: 'tp' },
      { id: 2, shape: box(5, 100, 40, 120), state: 'fp' },
    ],
  );

  it('keeps instances with geometry and counts them by side and state', () => {
    const s = buildScene([{ index: 0, model: 'm', record: r }]);
    expect(s.items).toHaveLength(5);
    expect(countByState(s.items)).toEqual({ 'gt:fn': 1, 'gt:tp': 1, 'pred:fp': 2, 'pred:tp': 1 });
    expect([s.width, s.height]).toEqual([500, 400]);
  });

  it('orders errors top-to-bottom, then left-to-right', () => {
    const s = buildScene([{ index: 0, model: 'm', record: r }]);
    expect(errorOrder(s.items).map((i) => `${i.side}${i.id}`)).toEqual(['pred0', 'pred2', 'gt0']);
  });

  it('draws the GT once in overlay mode and each model\'s predictions', () => {
    const views = [
      { model: 'a', record: r },
      { model: 'b', record: rec([], [{ id: 0, shape: box(1, 1, 2, 2), state: 'fp' }]) },
    ];
    expect(panesFor(views, 'side-by-side')).toHaveLength(2);
    expect(panesFor(views, 'single')).toEqual([[{ ...views[0], index: 0 }]]);
    const [overlay] = panesFor(views, 'overlay');
    const s = buildScene(overlay);
    expect(s.items.filter((i) => i.side === 'gt')).toHaveLength(2);
    expect(s.items.filter((i) => i.view === 1).map((i) => i.side)).toEqual(['pred']);
  });

  it('labels text, challenge tags and a PulseBench option\'s selected state', () => {
    expect(labelOf({ id: 0, state: 'tp', text: 'HELLO', tags: ['occluded', 'blurred'] })).toBe('HELLO [occluded, blurred]');
    expect(labelOf({ id: 0, state: 'info', text: 'Single', attrs: { selected: false } })).toBe('☐ Single');
    expect(labelOf({ id: 0, state: 'tp', attrs: { char: '王' } })).toBe('王');
  });
});

describe('roles', () => {
  it('draws the Chronicles Recognition target and the TABench R2T query box by role', () => {
    const info = (task: string): CaseRecord => ({ ...rec([{ id: 0, shape: box(1, 1, 9, 9), state: 'info' }], []), task });
    expect(buildScene([{ index: 0, model: 'm', record: info('recognition') }], 'chronicles').items[0].role).toBe('target');
    expect(buildScene([{ index: 0, model: 'm', record: info('R2T') }], 'tabench').items[0].role).toBe('query');
    expect(buildScene([{ index: 0, model: 'm', record: info('R2T') }], 'ltb').items[0].role).toBeNull();
  });
});

describe('styles', () => {
  it('gives TP, FN and FP distinct colours and distinct dash patterns', () => {
    const tp = styleFor('pred', 'tp');
    const fn = styleFor('gt', 'fn');
    const fp = styleFor('pred', 'fp');
    expect(new Set([tp.stroke, fn.stroke, fp.stroke]).size).toBe(3);
    expect(new Set([tp.dash.join(), fn.dash.join(), fp.dash.join()]).size).toBe(3);
    expect(styleFor('pred', 'ignored').alpha).toBeLessThan(1);
    expect(styleFor('gt', 'dontcare').hatch).toBe(true);
    expect(styleFor('gt', 'fn', 'target').stroke).toBe('#FF0000');
  });
});

describe('explain', () => {
  it('states IoU with the partner when matched and the best IoU with the reason when not', () => {
    const m = explain('pred', { id: 4, state: 'tp', score: 0.88, iou: 0.7712, partner: 2, text: 'WORLD' });
    expect(explanationText(m)).toBe('prediction 4 · matched\ntext: WORLD\nscore: 0.88\nIoU: 0.771 with GT 2');
    const fp = explain('pred', { id: 2, state: 'fp', best_iou: 0.12, partner: 2, reason: 'best IoU 0.12 < 0.5' });
    expect(fp.facts).toContainEqual({ label: 'best IoU', value: '0.12 (GT 2)' });
    expect(fp.reason).toBe('best IoU 0.12 < 0.5');
    const ign = explain('pred', { id: 3, state: 'ignored', reason: "overlap 62% with don't-care region 3" }, 'model-a');
    expect(ign.title).toBe('prediction 3 · ignored · model-a');
  });
});

describe('glyph fallback', () => {
  const has = (cp: number) => cp < 0x20000;
  it('replaces characters no font has with their code point, counting astral characters once', () => {
    expect(glyphRuns('王\u{3134A}\u{3134B}a', has)).toEqual([
      { text: '王', missing: false },
      { text: 'U+3134A U+3134B', missing: true },
      { text: 'a', missing: false },
    ]);
    expect(displayText('a\u{2A6D6}', has)).toBe('a‹U+2A6D6›');
    expect(displayText('plain', has)).toBe('plain');
  });
});

describe('keys', () => {
  it('maps keys to actions and leaves modified keys and typing alone', () => {
    expect(actionFor({ key: 'e' })).toBe('nextError');
    expect(actionFor({ key: 'E' })).toBe('prevError');
    expect(actionFor({ key: 'g' })).toBe('toggleGt');
    expect(actionFor({ key: '?' })).toBe('help');
    expect(actionFor({ key: 'c' })).toBe('toggleEditGt');
    // No key is bound twice (the help overlay and the dispatcher would disagree).
    const all = KEY_BINDINGS.flatMap((b) => b.keys);
    expect(new Set(all).size).toBe(all.length);
    expect(actionFor({ key: 'g', ctrlKey: true })).toBeNull();
    expect(actionFor({ key: '1' })).toBe('actualSize');
    expect(actionFor({ key: '1', shiftKey: true })).toBeNull();
    expect(actionFor({ key: 'x' })).toBeNull();
    expect(isTypingTarget({ tagName: 'INPUT', type: 'text' })).toBe(true);
    expect(isTypingTarget({ tagName: 'INPUT', type: 'checkbox' })).toBe(false);
    expect(isTypingTarget({ tagName: 'DIV', isContentEditable: true })).toBe(true);
    expect(isTypingTarget({ tagName: 'BUTTON' })).toBe(false);
  });
});
