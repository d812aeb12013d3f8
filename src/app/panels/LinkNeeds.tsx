/**
 * A link opened on a page that does not have what its view was made on: says which folder and
 * which prediction files it needs, and restores the view once they are opened (the cases slice
 * keeps the linked view until its models are loaded). In Chromium a folder that was picked here
 * before is reopened from its stored handle: at once when read permission is still granted,
 * else with one click (the browser asks for permission only on a user gesture).
 */
import { useEffect, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { listRecentFolders, reopenRecentFolder } from '../../db/recentFolders';
import type { RecentFolderRow } from '../../db/schema';
import { listDirectoryHandle } from '../../io';
import { useBench } from '../store';
import { parseViewHash, type ViewNeeds } from '../viewUrl';
import { openDatasetListing } from './openFolder';

/** What the page's URL asked for when it was loaded (later writes describe the page itself). */
let linkNeeds: ViewNeeds | null = null;
export function initialLinkNeeds(): ViewNeeds {
  if (!linkNeeds) linkNeeds = parseViewHash(typeof location === 'undefined' ? '' : location.hash);
  return linkNeeds;
}

/** Close abandons the linked view: what the page opens next is not held against the link. */
export function forgetLinkNeeds(): void {
  linkNeeds = parseViewHash('');
}

type Permissioned = FileSystemDirectoryHandle & { queryPermission?: (d: { mode: 'read' }) => Promise<PermissionState> };

async function openFromHandle(handle: FileSystemDirectoryHandle): Promise<void> {
  await openDatasetListing(await listDirectoryHandle(handle), handle);
}

export function LinkNeeds() {
  const needs = initialLinkNeeds();
  const dataset = useBench((s) => s.dataset);
  const status = useBench((s) => s.status);
  const models = useBench(useShallow((s) => s.models));
  const [recent, setRecent] = useState<RecentFolderRow | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const wantFolder = needs.dataset;
  const folderOk = !wantFolder || (dataset !== null && !dataset.demo && dataset.label === wantFolder);
  const missingModels = needs.models.filter((m) => !models.includes(m));

  // A recent folder of that name with a stored handle: reopen it without asking when allowed.
  useEffect(() => {
    if (!wantFolder || dataset || status === 'opening') return;
    let live = true;
    (async () => {
      const rows = await listRecentFolders().catch(() => [] as RecentFolderRow[]);
      const row = rows.find((r) => r.label === wantFolder && r.handle);
      if (!live || !row?.handle) return;
      setRecent(row);
      const h = row.handle as Permissioned;
      const state = h.queryPermission ? await h.queryPermission({ mode: 'read' }).catch(() => 'denied' as PermissionState) : 'granted';
      if (live && state === 'granted') await openFromHandle(row.handle).catch((e: unknown) => setNote(String((e as Error)?.message ?? e)));
    })();
    return () => {
      live = false;
    };
    // Only once per page: after that the user opens what they like.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  if (!wantFolder && needs.models.length === 0) return null;
  if (folderOk && missingModels.length === 0) return null;
  const reopen = async () => {
    if (recent?.id === undefined) return;
    const h = await reopenRecentFolder(recent.id);
    if (!h) return setNote(`"${recent.label}" could not be reopened (permission refused or the folder moved): open it again.`);
    await openFromHandle(h);
  };
  return (
    <aside className="link-needs" role="status" aria-label="This link needs" data-testid="link-needs">
      <strong>This link shows a view of </strong>
      {wantFolder ? (
        <>
          folder <code data-testid="link-needs-folder">{wantFolder}</code>
          {folderOk ? ' ✓' : ''}
        </>
      ) : (
        'this dataset'
      )}
      {needs.models.length > 0 && (
        <>
          {' '}with prediction files for{' '}
          {needs.models.map((m, i) => (
            <span key={m}>
              {i > 0 ? ', ' : ''}
              <code className={models.includes(m) ? 'have' : 'need'} data-testid="link-needs-model">
                {m}
              </code>
              {models.includes(m) ? ' ✓' : ''}
            </span>
          ))}
        </>
      )}
      .{' '}
      <span className="muted">
        {!folderOk ? 'Open that folder' : 'Add the missing prediction files'} (a prediction set is named after its file); the view — models, filters, case, protocol — is restored once they
        are open.
      </span>
      {!folderOk && recent && !dataset && (
        <>
          {' '}
          <button type="button" onClick={() => void reopen()} data-testid="link-reopen">
            Reopen {recent.label}
          </button>
        </>
      )}
      {note && <span className="error"> {note}</span>}
    </aside>
  );
}
