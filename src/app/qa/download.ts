/** GT downloads; the Blob-and-link mechanics live in src/app/download.ts. */
import { downloadBlob, downloadText } from '../download';
import { zipTexts } from './zip';

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
  const bytes = zipTexts(files);
  downloadBlob(`${baseName}.zip`, new Blob([bytes.buffer as ArrayBuffer], { type: 'application/zip' }));
}
