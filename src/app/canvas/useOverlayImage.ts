/**
 * The dataset's own overlay image of a case (gansulishuzhi's pages with the GT drawn in red),
 * named by the adapter in `record.detail.overlay_file`; null while loading or when there is none.
 */
import { useEffect, useState } from 'react';
import type { CaseRecord } from '../../core/model';
import { decodeImage } from './decode';

export function overlayFileOf(record: CaseRecord | undefined): string | null {
  const f = record?.detail?.overlay_file;
  return typeof f === 'string' && f !== '' ? f : null;
}

export function useOverlayImage(record: CaseRecord | undefined, read: (path: string) => Promise<Uint8Array>): ImageBitmap | null {
  const file = overlayFileOf(record);
  const [state, setState] = useState<{ file: string; image: ImageBitmap | null } | null>(null);
  useEffect(() => {
    if (!file) return;
    let live = true;
    read(file)
      .then((bytes) => decodeImage(new Blob([bytes as Uint8Array<ArrayBuffer>])))
      .then(
        (image) => live && setState({ file, image }),
        () => live && setState({ file, image: null }),
      );
    return () => {
      live = false;
    };
  }, [file, read]);
  return state && state.file === file ? state.image : null;
}
