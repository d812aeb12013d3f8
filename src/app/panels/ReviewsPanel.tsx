/** The review import / export (qa/QaImportExport) wired to the open dataset and the worker's export. */
import { useEffect, useState } from 'react';
import { QaImportExport } from '../qa/QaImportExport';
import { exportCaseAnalysis } from '../store/actions';
import { useBench } from '../store';

export function ReviewsPanel() {
  const fingerprint = useBench((s) => s.dataset?.info.fingerprint);
  const benchmark = useBench((s) => s.dataset?.benchmark);
  const table = useBench((s) => s.caseTable);
  // Built a task after the table arrives: hashing 20,000 ids is not worth a longer frame when the
  // case list first shows, and the set is only needed when the user imports reviews.
  const [known, setKnown] = useState<{ table: unknown; ids: Set<string> }>();
  useEffect(() => {
    if (!table) return;
    const t = setTimeout(() => setKnown({ table, ids: new Set(table.caseIds) }), 0);
    return () => clearTimeout(t);
  }, [table]);
  const knownIds = known && known.table === table ? known.ids : undefined;
  if (!fingerprint || !benchmark) return null;
  return (
    <section className="panel" aria-label="Reviews">
      <h3>Reviews</h3>
      <QaImportExport fingerprint={fingerprint} benchmark={benchmark} knownCaseIds={knownIds} exportCases={exportCaseAnalysis} fileName={`${benchmark}-case_analysis.jsonl`} />
    </section>
  );
}
