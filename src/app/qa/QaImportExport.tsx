/**
 * QaImportExport — "Export reviews" (case_analysis.jsonl with `qa`) and "Import reviews" (a
 * case_analysis.jsonl made here or elsewhere, conflicts resolved in ConflictDialog).
 *
 * Props:
 *   fingerprint    DatasetInfo.fingerprint of the open dataset.
 *   benchmark      its benchmark id (lines of another benchmark are skipped, with a warning).
 *   knownCaseIds   optional: the dataset's case ids (reviews of unknown cases are skipped).
 *   exportCases    writes case_analysis.jsonl with the given `qa` values merged in (the worker's
 *                  exportCaseAnalysis); it returns a Blob, so the page never holds or parses
 *                  the file, however large.
 *   fileName       optional download name, default case_analysis.jsonl.
 *   contents       optional: loaded models, name → prediction-content fingerprint (default: the
 *                  app store's modelContent). The export includes unsaved reviews.
 */
import { useRef, useState } from 'react';
import { ConflictDialog } from './ConflictDialog';
import type { QaState } from '../../core/qa';
import { downloadBlob } from '../download';
import type { ImportPlan, Resolution } from './caseIo';
import { applyImport, exportQa, prepareImport } from './qaIo';
import { useBench } from '../store';

export interface QaImportExportProps {
  fingerprint: string;
  benchmark: string;
  knownCaseIds?: ReadonlySet<string>;
  exportCases: (qaByKey: ReadonlyMap<string, QaState>) => Promise<Blob>;
  fileName?: string;
  contents?: Readonly<Record<string, string>>;
}

export function QaImportExport({ fingerprint, benchmark, knownCaseIds, exportCases, fileName = 'case_analysis.jsonl', contents: given }: QaImportExportProps) {
  const fromStore = useBench((s) => s.modelContent);
  const contents = given ?? fromStore;
  const input = useRef<HTMLInputElement>(null);
  const [plan, setPlan] = useState<ImportPlan | null>(null);
  const [message, setMessage] = useState<string>('');
  const [warnings, setWarnings] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);

  const run = async (what: () => Promise<void>) => {
    setBusy(true);
    try {
      await what();
    } catch (e) {
      setMessage(`Failed: ${(e as Error).message}`);
    } finally {
      setBusy(false);
    }
  };

  const onExport = () =>
    run(async () => {
      const file = await exportCases(await exportQa(fingerprint, contents));
      downloadBlob(fileName, file);
      setMessage(`Exported ${fileName} (${(file.size / 1e6).toFixed(1)} MB).`);
    });

  const finish = (p: ImportPlan, resolutions: Resolution[]) =>
    run(async () => {
      const written = await applyImport(fingerprint, p, resolutions);
      const taken = resolutions.filter((r) => r !== 'mine').length;
      setPlan(null);
      setWarnings(p.warnings);
      setMessage(
        `Imported ${p.reviews.length} review(s) and ${p.corrections.length} correction(s); ${p.unchanged} already here; ` +
          `${p.conflicts.length} conflict(s), ${taken} changed; ${written} row(s) written; ${p.warnings.length} line problem(s).`,
      );
    });

  const onFile = (file: File) =>
    run(async () => {
      const text = await file.text();
      const p = await prepareImport(fingerprint, text, { benchmark, knownCaseIds, contents });
      if (p.conflicts.length) setPlan(p);
      else await finish(p, []);
    });

  return (
    <div className="qa-io" data-testid="qa-io" style={{ display: 'flex', gap: 6, alignItems: 'center', flexWrap: 'wrap' }}>
      <button type="button" onClick={() => void onExport()} disabled={busy} data-testid="qa-export">
        Export reviews
      </button>
      <button type="button" onClick={() => input.current?.click()} disabled={busy} data-testid="qa-import">
        Import reviews…
      </button>
      <input
        ref={input}
        type="file"
        accept=".jsonl,application/x-ndjson,application/json,text/plain"
        hidden
        data-testid="qa-import-file"
        onChange={(e) => {
          const f = e.target.files?.[0];
          e.target.value = '';
          if (f) void onFile(f);
        }}
      />
      <span data-testid="qa-io-message" aria-live="polite">
        {message}
      </span>
      {warnings.length > 0 && (
        <details data-testid="qa-io-warnings">
          <summary>{warnings.length} line problem(s)</summary>
          <ul>
            {warnings.slice(0, 200).map((w, i) => (
              <li key={i}>{w}</li>
            ))}
          </ul>
        </details>
      )}
      {plan && <ConflictDialog conflicts={plan.conflicts} onApply={(r) => void finish(plan, r)} onCancel={() => setPlan(null)} />}
    </div>
  );
}
