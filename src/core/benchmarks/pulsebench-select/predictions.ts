/**
 * Prediction JSONL of the spec, in either form:
 * - one sample per line: `{sample_id, selected_items | items | predictions: [{page?, bbox?, content | text, selected?}]}`;
 * - one item per line: `{sample_id, page?, bbox?, content | text, selected?}`.
 * Several lines for one sample are concatenated in file order; sample ids compare as strings.
 */
import type { FileSource } from '../../io/fileSource';
import { forEachJsonObjectLine } from '../../io/text';
import type { RunContext } from '../../model';
import { isRecord, selectedOf, toItem, type SelItem } from './items';
import { quoteValue } from '../../io/json';

export interface PredItem extends SelItem {
  /** False for `selected: false | 0 | "false" | "no" | "0"`: shown, never scored. */
  selected: boolean;
  /** 1-based line of the prediction file the item came from. */
  line: number;
}

export interface PulsePredictions {
  /** Items per known sample id, in file order; a sample absent here had no line at all. */
  bySample: Map<string, PredItem[]>;
  malformedLines: number;
  unknownSamples: number;
}

const LIST_KEYS = ['selected_items', 'items', 'predictions'] as const;

export interface ParseOutcome {
  preds: PulsePredictions;
  warnings: string[];
  /** Lines that named a sample id of the dataset. */
  knownLines: number;
}

/** Reads one prediction file against the dataset's sample ids (`ctx`: byte progress and cancel). */
export async function parsePredictionFile(
  src: FileSource,
  path: string,
  knownIds: ReadonlySet<string>,
  ctx?: RunContext,
): Promise<ParseOutcome> {
  const bySample = new Map<string, PredItem[]>();
  const warnings: string[] = [];
  const unknown = new Set<string>();
  let malformed = 0;
  let knownLines = 0;
  const bad = (n: number, why: string) => {
    malformed += 1;
    warnings.push(`line ${n}: ${why}`);
  };
  await forEachJsonObjectLine(src, path, (v, n) => {
    if (v.sample_id === undefined || v.sample_id === null || v.sample_id === '' || typeof v.sample_id === 'object') {
      return bad(n, 'no sample_id');
    }
    const id = String(v.sample_id);
    const listKey = LIST_KEYS.find((k) => v[k] !== undefined);
    if (listKey && !Array.isArray(v[listKey])) return bad(n, `${listKey} is not a list`);
    if (!knownIds.has(id)) {
      // Not an FP: the sample is not in this dataset. One warning per id keeps the list readable.
      if (!unknown.has(id)) warnings.push(`line ${n}: unknown sample_id ${id}`);
      unknown.add(id);
      return;
    }
    knownLines += 1;
    let list = bySample.get(id);
    if (!list) bySample.set(id, (list = []));
    // A line without a list is one item, unless it carries no item field at all (a bare
    // `{sample_id}` line says "this sample has no predictions").
    const raw: unknown[] = listKey
      ? (v[listKey] as unknown[])
      : 'content' in v || 'text' in v || 'bbox' in v
        ? [v]
        : [];
    raw.forEach((o, k) => {
      const where = listKey ? `line ${n}: ${listKey}[${k}]` : `line ${n}`;
      if (!isRecord(o)) {
        warnings.push(`${where} is not an object; left out`);
        return;
      }
      const selected = selectedOf(o.selected);
      // An unselected prediction is drawn, never matched: no token Set (a fifth of the memory of an items-only file).
      const it = toItem(o, selected);
      if (!it) {
        warnings.push(`${where} has page ${quoteValue(o.page, 64)}, not an integer; left out`);
        return;
      }
      list.push({ ...it, selected, line: n });
    });
  }, bad, ctx);
  return { preds: { bySample, malformedLines: malformed, unknownSamples: unknown.size }, warnings, knownLines };
}
