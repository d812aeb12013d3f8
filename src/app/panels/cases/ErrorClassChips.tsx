/**
 * The "error class" facet of one model of the compared pair (shared/specs/errors.md): one chip
 * per class its FNs and FPs have ("FN split", "FP background"), with the number of cases under
 * the other filters. The classes are error kinds of the case table, so they filter as those do.
 */
import { useStore, type StoreApi } from 'zustand';
import { parseErrorClassKind } from '../../../core/errorClassKinds';
import type { CasesSlice } from '../../store/casesSlice';
import { countsOf, filterOf, type FilterTarget } from './query';

/** `label` names the target in accessible names ("A", "B" or the model's name). */
export function ErrorClassChips({ store, slot, kinds, label }: { store: StoreApi<CasesSlice>; slot: FilterTarget; kinds: readonly string[]; label: string }) {
  const selected = useStore(store, (s) => filterOf(s.caseQuery, slot).errorKinds);
  const counts = useStore(store, (s) => (s.caseResult ? countsOf(s.caseResult, slot)?.errorCounts : undefined));
  const classes = kinds.map((k, bit) => ({ k, bit, c: parseErrorClassKind(k) })).filter((x) => x.c !== null);
  if (classes.length === 0) return null;
  const { toggleErrorKind } = store.getState();
  return (
    <div className="cb-chips" role="group" aria-label={`Error class of ${label}`} data-testid={typeof slot === 'string' ? `error-class-${slot}` : 'error-class-model'}>
      {classes.map(({ k, bit, c }) => {
        const on = selected.includes(k);
        return (
          <button
            key={k}
            type="button"
            className={`cb-chip cb-error cb-class-${c!.side}${on ? ' cb-on' : ''}`}
            aria-pressed={on}
            data-error-class={k}
            title={c!.side === 'fn' ? `missed GTs classed ${c!.cls}` : `false positives classed ${c!.cls}`}
            onClick={() => toggleErrorKind(slot, k)}
          >
            {k} <span className="cb-count">{counts?.[bit] ?? 0}</span>
          </button>
        );
      })}
    </div>
  );
}
