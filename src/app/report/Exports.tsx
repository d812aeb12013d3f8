/**
 * The three exports: report.json, case_analysis.jsonl (with the reviews merged in), report CSV —
 * each saved as `<benchmark>-<name>` (ltb-report.json), so the report of one benchmark does not
 * overwrite another's in the downloads folder (the CLI still writes report.json into --out).
 */
import { useState } from 'react';
import { exportCaseAnalysis, exportText } from '../store/actions';
import { useBench } from '../store';
import { exportQa } from '../qa/qaIo';
import { downloadBlob, downloadText } from '../download';

export function Exports() {
  const fingerprint = useBench((s) => s.dataset?.info.fingerprint);
  const benchmark = useBench((s) => s.dataset?.benchmark ?? 'benchlens');
  const [error, setError] = useState<string | null>(null);
  // report.json carries the intervals: its export waits for them when they are not there yet.
  const [reportPending, setReportPending] = useState(false);
  const intervals = useBench((s) => s.intervals.state);
  const run = async (what: () => Promise<void>) => {
    setError(null);
    try {
      await what();
    } catch (e) {
      // report.json waits for the intervals; a new score or Stop ends that wait.
      setError((e as Error).name === 'AbortError' ? 'export stopped: the intervals it waited for were stopped (a new score, or Stop)' : (e as Error).message);
    }
  };
  // The worker writes the file (several GB for a large run) as a Blob with the reviews merged in;
  // the page only reads the reviews and hands the Blob to the download.
  const cases = async () => {
    // Reviews live in IndexedDB; a browser without it still gets the unreviewed lines.
    const qa = fingerprint ? await exportQa(fingerprint, useBench.getState().modelContent).catch(() => undefined) : undefined;
    downloadBlob(`${benchmark}-case_analysis.jsonl`, await exportCaseAnalysis(qa));
  };
  return (
    <div className="exports" role="group" aria-label="Export">
      <span className="muted">Export:</span>
      <button
        type="button"
        title={`saves ${benchmark}-report.json`}
        onClick={() => {
          setReportPending(true);
          void run(async () => downloadText(`${benchmark}-report.json`, await exportText('report'), 'application/json')).finally(() => setReportPending(false));
        }}
      >
        report.json
      </button>
      {reportPending && intervals !== 'done' && intervals !== 'off' && <span className="muted small">report.json waits for the intervals…</span>}
      <button type="button" title={`saves ${benchmark}-case_analysis.jsonl`} onClick={() => run(cases)}>
        case_analysis.jsonl
      </button>
      <button type="button" title={`saves ${benchmark}-report.csv`} onClick={() => run(async () => downloadText(`${benchmark}-report.csv`, await exportText('csv'), 'text/csv'))}>
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
