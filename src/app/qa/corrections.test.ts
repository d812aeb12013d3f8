import { describe, expect, it } from 'vitest';
import type { Instance } from '../../core/model';
import type { CorrectionRow } from '../../db/schema';
import { effectiveGt, reshapedOriginal } from './corrections';

const gt: Instance[] = [
  { id: 0, state: 'tp', text: 'EXIT', shape: { type: 'polygon', points: [0, 0, 10, 0, 10, 5] } },
  { id: 1, state: 'dontcare', text: '###', shape: { type: 'box', box: [20, 20, 30, 30] } },
];
const row = (id: string, correction: CorrectionRow['correction']): CorrectionRow => ({ id, fingerprint: 'fp', case_id: 'a', correction, updated_at: 't' });

describe('the GT the editor shows', () => {
  it('is the original when nothing was corrected', () => {
    expect(effectiveGt(gt, []).map((g) => [g.key, g.care, g.corrected])).toEqual([
      ['gt:0', true, false],
      ['gt:1', false, false],
    ]);
  });

  it('applies corrections and appends added instances without touching the original', () => {
    const before = JSON.stringify(gt);
    const out = effectiveGt(gt, [
      row('x', { case_id: 'a', gt_id: 1, care: true, text: 'OPEN' }),
      row('y', { case_id: 'a', gt_id: null, shape: { type: 'box', box: [1, 2, 3, 4] }, text: 'new' }),
      row('z', { case_id: 'a', gt_id: 0, deleted: true }),
    ]);
    expect(out.map((g) => [g.key, g.text, g.care, g.deleted, g.correctionId])).toEqual([
      ['gt:0', 'EXIT', true, true, 'z'],
      ['gt:1', 'OPEN', true, false, 'x'],
      ['add:y', 'new', true, false, 'y'],
    ]);
    expect(out[0].shape).toEqual(gt[0].shape);
    expect(JSON.stringify(gt)).toBe(before);
  });
});

describe('editor edits', () => {
  it('name only what changed on an uncorrected instance, and merge into an existing correction', async () => {
    const { editFor, revertFor } = await import('./corrections');
    const [g0, g1] = effectiveGt(gt, [row('x', { case_id: 'a', gt_id: 1, text: 'OPEN' })]);
    expect(editFor(g0, 'a', { care: false })).toEqual({ id: undefined, correction: { case_id: 'a', gt_id: 0, care: false } });
    expect(editFor(g1, 'a', { shape: { type: 'box', box: [0, 0, 1, 1] } })).toEqual({
      id: 'x',
      correction: { case_id: 'a', gt_id: 1, text: 'OPEN', shape: { type: 'box', box: [0, 0, 1, 1] } },
    });
    expect(revertFor(g0, 'a')).toBeNull();
    expect(revertFor(g1, 'a')).toEqual({ id: 'x', correction: { case_id: 'a', gt_id: 1 }, remove: true });
  });
});

describe('the original beside a reshaped instance', () => {
  it('is the dataset outline when the shape changed, and nothing otherwise', () => {
    const out = effectiveGt(gt, [
      row('m', { case_id: 'a', gt_id: 0, shape: { type: 'polygon', points: [100, 0, 110, 0, 110, 5] } }),
      row('t', { case_id: 'a', gt_id: 1, text: 'only the text' }),
      row('n', { case_id: 'a', gt_id: null, shape: { type: 'box', box: [1, 2, 3, 4] } }),
    ]);
    expect(out[0].shape).toEqual({ type: 'polygon', points: [100, 0, 110, 0, 110, 5] });
    expect(reshapedOriginal(out[0])).toEqual([0, 0, 10, 0, 10, 5]);
    expect(reshapedOriginal(out[1])).toBeNull();
    expect(reshapedOriginal(out[2])).toBeNull();
    // A box corrected back to its own corners is not "reshaped".
    const same = effectiveGt(gt, [row('s', { case_id: 'a', gt_id: 1, shape: { type: 'polygon', points: [20, 20, 30, 20, 30, 30, 20, 30] } })]);
    expect(reshapedOriginal(same[1])).toBeNull();
  });
});
