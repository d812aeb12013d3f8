/** Folders opened before. Those picked with the directory picker reopen in one click (Chromium). */
import { useEffect, useState } from 'react';
import { listRecentFolders, removeRecentFolder, reopenRecentFolder } from '../../db/recentFolders';
import type { RecentFolderRow } from '../../db/schema';
import { listDirectoryHandle } from '../../io';
import { openDatasetListing } from './openFolder';
import { Timestamp } from '../Timestamp';

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
            {/* Only a folder picked with the directory picker can reopen: the others say why, on the line (not in a tooltip of a greyed button). */}
            {r.handle ? (
              <button type="button" className="link" onClick={() => void reopen(r)} title="Reopen">
                <bdi>{r.label}</bdi>
              </button>
            ) : (
              <bdi data-testid="recent-no-reopen">{r.label}</bdi>
            )}{' '}
            <span className="muted">
              {r.benchmark} · <Timestamp value={r.lastOpened} />
              {!r.handle && <span data-testid="recent-why"> · opened by drop or upload: open or drop it again to reopen</span>}
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
