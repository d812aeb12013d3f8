/**
 * Downloads made in the page (nothing leaves the machine): a Blob URL clicked through a
 * temporary <a download>, revoked right after.
 */
import { zipStore } from './zip';

export function downloadBlob(name: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function downloadText(name: string, text: string, type = 'text/plain;charset=utf-8'): void {
  downloadBlob(name, new Blob([text], { type }));
}

/** case_analysis.jsonl: one line per (model, case), newline-terminated. */
export function downloadCaseAnalysis(lines: readonly string[], name = 'case_analysis.jsonl'): void {
  downloadText(name, lines.length ? `${lines.join('\n')}\n` : '', 'application/x-ndjson;charset=utf-8');
}

/**
 * The corrected GT in the benchmark's own format, as the worker's exportGroundTruth returns it
 * (path → contents): one file is downloaded as itself, several as `<baseName>.zip` keeping paths.
 */
export function downloadGroundTruth(files: Record<string, string>, baseName = 'corrected_gt'): void {
  const paths = Object.keys(files);
  if (paths.length === 0) return;
  if (paths.length === 1) {
    const p = paths[0];
    downloadText(p.split('/').pop() || p, files[p]);
    return;
  }
  const bytes = zipStore(files);
  downloadBlob(`${baseName}.zip`, new Blob([bytes.buffer as ArrayBuffer], { type: 'application/zip' }));
}
