/**
 * Recently opened benchmark folders. In Chromium a FileSystemDirectoryHandle can be kept in
 * IndexedDB and reopened later after the user grants read permission again (one click, no
 * picker). Folders that came from drag-and-drop or <input webkitdirectory> have no handle: they
 * are listed (label, benchmark) so the page can say "open it again", but cannot be reopened.
 */
import { getDb, type BenchlensDB, type RecentFolderRow } from './schema';

/** How many folders the list keeps; the oldest are dropped. */
export const MAX_RECENT_FOLDERS = 12;

type PermissionMode = { mode: 'read' | 'readwrite' };
/** The permission half of the File System Access API (not in TypeScript's DOM lib yet). */
interface PermissionedHandle {
  queryPermission?: (d: PermissionMode) => Promise<PermissionState>;
  requestPermission?: (d: PermissionMode) => Promise<PermissionState>;
}

async function sameFolder(a: RecentFolderRow, handle: FileSystemDirectoryHandle | null, label: string, benchmark: string): Promise<boolean> {
  if (a.handle && handle) {
    try {
      return await a.handle.isSameEntry(handle);
    } catch {
      return false;
    }
  }
  return !a.handle && !handle && a.label === label && a.benchmark === benchmark;
}

/** Records (or refreshes) a folder; returns its id. */
export async function addRecentFolder(
  handle: FileSystemDirectoryHandle | null,
  label: string,
  benchmark: string,
  db: BenchlensDB = getDb(),
): Promise<number> {
  const all = await db.recentFolders.toArray();
  let existing: RecentFolderRow | undefined;
  for (const r of all) if (await sameFolder(r, handle, label, benchmark)) existing = r;
  const row: RecentFolderRow = { handle, label, benchmark, lastOpened: Date.now() };
  if (existing?.id !== undefined) row.id = existing.id;
  const id = (await db.recentFolders.put(row)) as number;
  const count = await db.recentFolders.count();
  if (count > MAX_RECENT_FOLDERS) {
    const old = await db.recentFolders.orderBy('lastOpened').limit(count - MAX_RECENT_FOLDERS).primaryKeys();
    await db.recentFolders.bulkDelete(old);
  }
  return id;
}

/** Newest first. */
export async function listRecentFolders(db: BenchlensDB = getDb()): Promise<RecentFolderRow[]> {
  return db.recentFolders.orderBy('lastOpened').reverse().toArray();
}

export async function removeRecentFolder(id: number, db: BenchlensDB = getDb()): Promise<void> {
  await db.recentFolders.delete(id);
}

/**
 * The stored handle with read permission granted, or null (no handle, permission denied, or the
 * folder is gone). requestPermission needs a user gesture: call this from a click handler.
 */
export async function reopenRecentFolder(id: number, db: BenchlensDB = getDb()): Promise<FileSystemDirectoryHandle | null> {
  const row = await db.recentFolders.get(id);
  if (!row?.handle) return null;
  const h = row.handle as FileSystemDirectoryHandle & PermissionedHandle;
  try {
    let state: PermissionState = h.queryPermission ? await h.queryPermission({ mode: 'read' }) : 'granted';
    if (state !== 'granted' && h.requestPermission) state = await h.requestPermission({ mode: 'read' });
    if (state !== 'granted') return null;
  } catch {
    return null; // the handle no longer resolves (folder moved or deleted)
  }
  await db.recentFolders.update(id, { lastOpened: Date.now() });
  return row.handle;
}
