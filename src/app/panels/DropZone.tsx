/**
 * The whole page is a drop target. Before a dataset is open a dropped folder opens as the dataset;
 * afterwards dropped files and folders are added as predictions (one model each).
 */
import { useEffect, useState } from 'react';
import { readDrop } from '../../io';
import { addPredictions } from '../store/actions';
import { useBench } from '../store';
import { openDatasetListing } from './openFolder';

export function DropZone({ children }: { children: React.ReactNode }) {
  const [over, setOver] = useState(false);
  const open = useBench((s) => s.status === 'open');
  useEffect(() => {
    let depth = 0;
    const hasFiles = (e: DragEvent) => !!e.dataTransfer && [...e.dataTransfer.types].includes('Files');
    const enter = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      depth++;
      setOver(true);
    };
    const overFn = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
    };
    const leave = () => {
      depth = Math.max(0, depth - 1);
      if (depth === 0) setOver(false);
    };
    const drop = (e: DragEvent) => {
      if (!e.dataTransfer) return;
      e.preventDefault();
      depth = 0;
      setOver(false);
      void handleDrop(e.dataTransfer);
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragover', overFn);
    window.addEventListener('dragleave', leave);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragover', overFn);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', drop);
    };
  }, []);
  return (
    <div className="dropzone-root">
      {children}
      {over && (
        <div className="drop-overlay" aria-hidden="true">
          <div>{open ? 'Drop prediction files or folders to add them as models' : 'Drop a benchmark folder to open it'}</div>
        </div>
      )}
    </div>
  );
}

async function handleDrop(dt: DataTransfer): Promise<void> {
  const { folders, files } = await readDrop(dt);
  const st = useBench.getState();
  if (st.status !== 'open') {
    if (folders.length > 0) await openDatasetListing(folders[0]);
    else if (files) st.setOpenError('drop the benchmark folder itself (not single files) to open it');
    return;
  }
  // One drop is one selection: its later adds keep the earlier ones' outcomes in the notice.
  const listings = [...folders, ...(files ? [files] : [])];
  for (const [i, l] of listings.entries()) await addPredictions(l, { sameAction: i > 0 });
}
