/**
 * The error class of an FN / FP instance (shared/specs/errors.md) in words, with the instances
 * that caused it named ("split: parts pred 3, pred 7"), and those instances themselves, so the
 * viewer can draw them beside the one selected or hovered. Pure: tooltip and panel share it.
 */
import type { Instance } from '../../core/model';
import type { Side } from './scene';

const list = (side: Side, ids: readonly number[] | undefined) => (ids ?? []).map((i) => `${side === 'gt' ? 'GT' : 'pred'} ${i}`).join(', ');

/** The instances behind an instance's class, with the side each is on. */
export function errorCauses(inst: Instance): { side: Side; id: number }[] {
  const w = inst.error_with;
  if (!inst.error || !w) return [];
  return [...(w.gt ?? []).map((id) => ({ side: 'gt' as const, id })), ...(w.pred ?? []).map((id) => ({ side: 'pred' as const, id }))];
}

/** "split: parts pred 3, pred 7", or null when the instance has no class. */
export function describeError(side: Side, inst: Instance): string | null {
  const c = inst.error;
  if (!c) return null;
  const gt = list('gt', inst.error_with?.gt);
  const pred = list('pred', inst.error_with?.pred);
  const fn = side === 'gt';
  const say = (s: string) => `${c}: ${s}`;
  switch (c) {
    case 'split':
      return fn ? say(`parts ${pred || '—'}`) : say(`a part of ${gt || 'a GT'}${pred ? `, with ${pred}` : ''}`);
    case 'merge':
      return fn ? say(`covered by ${pred || 'a prediction'}${gt ? ` together with ${gt}` : ''}`) : say(`covers ${gt || 'two or more GTs'}`);
    case 'order':
      return say(`${pred || 'the prediction'} went to ${gt || 'another GT'} (first-fit); a maximum matching pairs more`);
    case 'recognition':
      return fn ? say(`${pred || 'a prediction'} has the box, with other text`) : say(`the box of ${gt || 'a GT'}, with other text`);
    case 'dontcare':
      return say(`${pred || 'a prediction'} was swallowed by don't-care ${gt || 'region'}`);
    case 'score':
      return say(`${pred || 'a prediction'} would match, under the score threshold`);
    case 'duplicate':
      return say(`${gt || 'the GT'} is already matched${pred ? ` by ${pred}` : ''}`);
    case 'localization':
      return say(`best IoU ≥ 0.1 with ${(fn ? pred : gt) || '—'}, not enough to match`);
    case 'missed':
      return say('no prediction within IoU 0.1');
    case 'background':
      return say('no GT within IoU 0.1');
    default:
      return say([gt, pred].filter(Boolean).join(', ') || '—');
  }
}
