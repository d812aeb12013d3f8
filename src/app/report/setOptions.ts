/** Rescoring with several protocol options changed at once (null removes one): one score, not one per option. */
import type { OptionValue } from '../../core';
import { rescore } from '../store/actions';
import { useBench } from '../store';

export function setOptions(change: Record<string, OptionValue | null>): Promise<void> {
  const p = useBench.getState().protocol;
  if (!p) return Promise.resolve();
  const options: Record<string, OptionValue> = { ...p.options };
  for (const [k, v] of Object.entries(change)) {
    if (v === null) delete options[k];
    else options[k] = v;
  }
  return rescore({ name: p.name, options });
}
