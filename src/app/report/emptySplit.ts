/**
 * A split with no care GT and no prediction taking part: the official evaluator still reports
 * hmean / precision / recall (100 in MMOCR 1.0.1), and report.json keeps those numbers; the page
 * shows "—" with the counts instead, since 100 there measures nothing.
 */
export interface EmptySplit {
  gt: number;
  pred: number;
}

export function emptySplit(metrics: Readonly<Record<string, number>> | undefined, split: string): EmptySplit | null {
  if (!metrics) return null;
  const gt = metrics[`${split}/gt`];
  const pred = metrics[`${split}/pred`];
  return gt === 0 && pred === 0 ? { gt, pred } : null;
}

/** The columns of a split that "—" replaces (the counts themselves stay numbers). */
export const EMPTY_SPLIT_COLUMNS: ReadonlySet<string> = new Set(['hmean', 'precision', 'recall', 'threshold']);
