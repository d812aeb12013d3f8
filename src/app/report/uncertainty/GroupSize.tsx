/** "n < 30" beside the name of a group whose metrics are aggregated over fewer than 30 units. */
import { groupOfKey, prefixGroupOfKey, SMALL_GROUP, unitsText } from './intervals';
import { useIntervals } from './context';

/**
 * `metricKey`: one metric of the row; the mark shows only when a group of the block prefixes it,
 * or — with `orAll`, for a table of the whole dataset's numbers — for the `all` group.
 */
export function GroupSize({ metricKey, orAll = false }: { metricKey: string; orAll?: boolean }) {
  const block = useIntervals();
  const g = orAll ? groupOfKey(block, metricKey) : prefixGroupOfKey(block, metricKey);
  if (!g || g.units >= SMALL_GROUP) return null;
  return (
    <span className="small-n" data-testid="small-n" data-group={g.id} title={`${g.id}: ${unitsText(g.units)} — with so few, the interval is rough`}>
      n &lt; {SMALL_GROUP}
    </span>
  );
}
