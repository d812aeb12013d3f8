/** The review import / export (qa/QaImportExport) wired to the open dataset and the worker's case lines. */
import { useMemo } from 'react';
import { QaImportExport } from '../qa/QaImportExport';
import { exportText } from '../store/actions';
import { useBench } from '../store';

const caseLines = async (): Promise<string[]> => {
  const text = await exportText('cases');
  return text === '' ? [] : text.trimEnd().split('\n');
};

export function ReviewsPanel() {
  const fingerprint = useBench((s) => s.dataset?.info.fingerprint);
  const benchmark = useBench((s) => s.dataset?.benchmark);
  const table = useBench((s) => s.caseTable);
  const known = useMemo(() => (table ? new Set(table.caseIds) : undefined), [table]);
  if (!fingerprint || !benchmark) return null;
  return (
    <section className="panel" aria-label="Reviews">
      <h3>Reviews</h3>
      <QaImportExport fingerprint={fingerprint} benchmark={benchmark} knownCaseIds={known} getCaseLines={caseLines} fileName={`${benchmark}-case_analysis.jsonl`} />
    </section>
  );
}
