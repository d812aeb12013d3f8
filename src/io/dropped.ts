/**
 * Dropped folders and files. The DataTransfer items are only valid during the drop event, so
 * every handle or entry is requested synchronously first and walked afterwards. Chromium gives
 * FileSystemHandles (getAsFileSystemHandle); elsewhere the older webkitGetAsEntry tree is used.
 */
import { listDirectoryHandle } from './directoryHandle';
import { filesListing, folderListing, isHiddenPath, type Listing, type ListingFile } from './listing';

export interface DroppedItems {
  /** One listing per dropped folder. */
  folders: Listing[];
  /** Loose dropped files, together (each becomes one model when added as predictions). */
  files: Listing | null;
}

export async function readDrop(dt: DataTransfer): Promise<DroppedItems> {
  const items = [...dt.items].filter((i) => i.kind === 'file');
  // Request everything synchronously: after the first await the DataTransfer is emptied.
  const pending = items.map((item) => {
    const handle = item.getAsFileSystemHandle?.() ?? null;
    const entry = item.webkitGetAsEntry?.() ?? null;
    const file = item.getAsFile();
    return { handle, entry, file };
  });
  const folders: Listing[] = [];
  const loose: ListingFile[] = [];
  for (const p of pending) {
    const handle = p.handle ? await p.handle.catch(() => null) : null;
    if (handle && handle.kind === 'directory') {
      folders.push(await listDirectoryHandle(handle as FileSystemDirectoryHandle));
    } else if (handle && handle.kind === 'file') {
      loose.push({ path: handle.name, file: handle as FileSystemFileHandle });
    } else if (p.entry && p.entry.isDirectory) {
      folders.push(await listDirectoryEntry(p.entry as FileSystemDirectoryEntry));
    } else if (p.file) {
      loose.push({ path: p.file.name, file: p.file });
    }
  }
  if (folders.length === 0 && loose.length === 0 && dt.files.length > 0) {
    // Some drags (e.g. synthetic ones) expose only `files`.
    for (const f of dt.files) loose.push({ path: f.name, file: f });
  }
  return { folders, files: loose.length > 0 ? filesListing(loose) : null };
}

async function listDirectoryEntry(root: FileSystemDirectoryEntry): Promise<Listing> {
  const files: ListingFile[] = [];
  const walk = async (dir: FileSystemDirectoryEntry, prefix: string): Promise<void> => {
    const reader = dir.createReader();
    // readEntries returns at most ~100 entries per call: keep calling until it returns none.
    for (;;) {
      const batch = await new Promise<FileSystemEntry[]>((res, rej) => reader.readEntries(res, rej));
      if (batch.length === 0) break;
      for (const e of batch) {
        if (isHiddenPath(e.name)) continue;
        const path = prefix + e.name;
        if (e.isDirectory) await walk(e as FileSystemDirectoryEntry, path + '/');
        else {
          const file = await new Promise<File>((res, rej) => (e as FileSystemFileEntry).file(res, rej));
          files.push({ path, file });
        }
      }
    }
  };
  await walk(root, '');
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return folderListing(root.name, files);
}
