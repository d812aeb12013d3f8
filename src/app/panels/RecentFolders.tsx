/** Folders opened before. Those picked with the directory picker reopen in one click (Chromium). */
import { useEffect, useState } from 'react';
import { listRecentFolders, removeRecentFolder, reopenRecentFolder } from '../../db/recentFolders';
import type { RecentFolderRow } from '../../db/schema';
import { listDirectoryHandle } from '../../io';
import { openDatasetListing } from './openFolder';

export function RecentFolders() {
  const [rows, setRows] = useState<RecentFolderRow[]>([]);
  const [note, setNote] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    const load = () =>
      listRecentFolders()
        .then((r) => live && setRows(r))
        .catch(() => live && setRows([]));
    void load();
    window.addEventListener('benchlens:recent-changed', load);
    return () => {
      live = false;
      window.removeEventListener('benchlens:recent-changed', load);
    };
  }, []);
  if (rows.length === 0) return null;
  const reopen = async (row: RecentFolderRow) => {
    setNote(null);
    if (row.id === undefined) return;
    const handle = await reopenRecentFolder(row.id);
    if (!handle) {
      setNote(`"${row.label}" cannot be reopened from here (no permission or it came from a drop): open or drop it again.`);
      return;
    }
    await openDatasetListing(await listDirectoryHandle(handle), handle);
  };
  return (
    <section className="recent" aria-label="Recent folders">
      <h3>Recent folders</h3>
      <ul>
        {rows.map((r) => (
          <li key={r.id}>
            <button type="button" className="link" onClick={() => void reopen(r)} disabled={!r.handle} title={r.handle ? 'Reopen' : 'Opened by drop or upload: open it again'}>
              {r.label}
            </button>{' '}
            <span className="muted">
              {r.benchmark} · {new Date(r.lastOpened).toLocaleString()}
            </span>{' '}
            <button
              type="button"
              className="icon"
              aria-label={`Forget ${r.label}`}
              onClick={async () => {
                if (r.id !== undefined) await removeRecentFolder(r.id).catch(() => undefined);
                setRows((x) => x.filter((y) => y.id !== r.id));
              }}
            >
              ×
            </button>
          </li>
        ))}
      </ul>
      {note && <p className="muted">{note}</p>}
    </section>
  );
}
