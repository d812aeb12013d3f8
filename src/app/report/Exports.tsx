/** The three exports: report.json, case_analysis.jsonl (with the reviews merged in), report CSV. */
import { useState } from 'react';
import { exportText } from '../store/actions';
import { useBench } from '../store';
import { exportCaseLines } from '../qa/qaIo';
import { downloadText } from '../download';

export function Exports() {
  const fingerprint = useBench((s) => s.dataset?.info.fingerprint);
  const benchmark = useBench((s) => s.dataset?.benchmark ?? 'benchlens');
  const [error, setError] = useState<string | null>(null);
  const run = async (what: () => Promise<void>) => {
    setError(null);
    try {
      await what();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const cases = async () => {
    const text = await exportText('cases');
    let lines = text === '' ? [] : text.trimEnd().split('\n');
    // Reviews live in IndexedDB; a browser without it still gets the unreviewed lines.
    if (fingerprint) lines = await exportCaseLines(fingerprint, lines).catch(() => lines);
    downloadText(`${benchmark}-case_analysis.jsonl`, lines.length ? lines.join('\n') + '\n' : '', 'application/x-ndjson');
  };
  return (
    <div className="exports" role="group" aria-label="Export">
      <span className="muted">Export:</span>
      <button type="button" onClick={() => run(async () => downloadText('report.json', await exportText('report'), 'application/json'))}>
        report.json
      </button>
      <button type="button" onClick={() => run(cases)}>
        case_analysis.jsonl
      </button>
      <button type="button" onClick={() => run(async () => downloadText(`${benchmark}-report.csv`, await exportText('csv'), 'text/csv'))}>
        report.csv
      </button>
      {error && (
        <span role="alert" className="error">
          {error}
        </span>
      )}
    </div>
  );
}
