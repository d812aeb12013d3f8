/**
 * The GT editor for one case of the open dataset, as the case viewer mounts it (CaseViewer's
 * `gtEditor` render prop): the case's GT with its stored corrections applied, and every
 * confirmed edit written at once to IndexedDB under the dataset fingerprint (undo / redo:
 * Ctrl+Z / Ctrl+Shift+Z through the review panel, which shares the same history).
 */
import { useCallback, useMemo, useState } from 'react';
import type { Instance } from '../../core/model';
import type { GtEditorFrame } from '../canvas/EditorFrame';
import { commitCorrection, effectiveGt, useCorrections, type CorrectionEdit } from './corrections';
import { GtEditorOverlay } from './GtEditor';

export interface CaseGtEditorProps {
  fingerprint: string;
  caseId: string;
  gt: readonly Instance[];
  frame: GtEditorFrame;
}

export function CaseGtEditor({ fingerprint, caseId, gt, frame }: CaseGtEditorProps) {
  const rows = useCorrections(fingerprint, caseId);
  const instances = useMemo(() => effectiveGt(gt, rows), [gt, rows]);
  const [error, setError] = useState<string | null>(null);
  const onCommit = useCallback(
    (edit: CorrectionEdit) => {
      setError(null);
      commitCorrection(fingerprint, edit).catch((e: unknown) => setError(`the correction was not stored: ${(e as Error).message}`));
    },
    [fingerprint],
  );
  const corrected = instances.filter((g) => g.corrected).length;
  return (
    <>
      <GtEditorOverlay
        instances={instances}
        caseId={caseId}
        transform={frame.transform}
        width={frame.width}
        height={frame.height}
        imageWidth={frame.imageWidth}
        imageHeight={frame.imageHeight}
        onCommit={onCommit}
      />
      <div data-testid="gt-edit-status" data-corrections={corrected} style={{ position: 'absolute', right: 4, bottom: 4, background: 'rgba(0,0,0,0.7)', color: '#eee', fontSize: 12, padding: '1px 6px', borderRadius: 3 }}>
        {corrected === 0 ? 'no corrections in this case' : `${corrected} corrected instance${corrected === 1 ? '' : 's'} (dashed grey: original)`}
        {error && (
          <span role="alert" style={{ color: '#ff8a80' }}>
            {' '}
            {error}
          </span>
        )}
      </div>
    </>
  );
}
