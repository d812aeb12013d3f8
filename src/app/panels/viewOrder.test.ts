import { describe, expect, it } from 'vitest';
import { orderViews } from './viewOrder';

const v = (...names: string[]) => names.map((model) => ({ model }));
const names = (xs: { model: string }[]) => xs.map((x) => x.model);

describe('which models the canvas draws', () => {
  const all = v('m1', 'm2', 'm3', 'm4', 'm5');
  const shown = ['m1', 'm2', 'm3', 'm4', 'm5'];

  it('compared: every shown model with a record, A first, then B, then the others in shown order', () => {
    expect(names(orderViews(all, shown, 'm4', 'm2', true))).toEqual(['m4', 'm2', 'm1', 'm3', 'm5']);
  });

  it('hidden models and models without a record of the case are left out', () => {
    expect(names(orderViews(v('m1', 'm3', 'm5'), ['m1', 'm2', 'm5'], 'm5', null, true))).toEqual(['m5', 'm1']);
  });

  it('alone: model A, else the first shown model that has the case', () => {
    expect(names(orderViews(all, shown, 'm3', 'm1', false))).toEqual(['m3']);
    expect(names(orderViews(v('m2', 'm4'), ['m4', 'm2'], 'm1', null, false))).toEqual(['m4']);
    expect(orderViews([], shown, 'm1', null, false)).toEqual([]);
  });
});
