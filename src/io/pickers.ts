/**
 * The directory / file pickers of the File System Access API (Chromium). Where they are missing
 * the page falls back to <input webkitdirectory> / <input multiple>; `null` means the user
 * cancelled.
 */
import { listDirectoryHandle } from './directoryHandle';
import { filesListing, type Listing } from './listing';

export const hasDirectoryPicker = (): boolean => typeof window !== 'undefined' && typeof window.showDirectoryPicker === 'function';
export const hasFilePicker = (): boolean => typeof window !== 'undefined' && typeof window.showOpenFilePicker === 'function';

export interface PickedFolder {
  listing: Listing;
  /** Kept so "recent folders" can reopen it (Chromium stores handles in IndexedDB). */
  handle: FileSystemDirectoryHandle;
}

export async function pickDirectory(): Promise<PickedFolder | null> {
  let handle: FileSystemDirectoryHandle;
  try {
    handle = await window.showDirectoryPicker!({ id: 'benchlens-dataset', mode: 'read' });
  } catch (e) {
    if ((e as Error).name === 'AbortError') return null;
    throw e;
  }
  return { listing: await listDirectoryHandle(handle), handle };
}

export async function pickFiles(): Promise<Listing | null> {
  let handles: FileSystemFileHandle[];
  try {
    handles = await window.showOpenFilePicker!({ multiple: true, id: 'benchlens-predictions' });
  } catch (e) {
    if ((e as Error).name === 'AbortError') return null;
    throw e;
  }
  return filesListing(handles.map((h) => ({ path: h.name, file: h })));
}

/** Re-opens a stored directory handle, asking for permission again when the browser needs it. */
export async function reopenDirectory(handle: FileSystemDirectoryHandle): Promise<Listing | null> {
  const opts = { mode: 'read' as const };
  let state = (await handle.queryPermission?.(opts)) ?? 'granted';
  if (state !== 'granted') state = (await handle.requestPermission?.(opts)) ?? 'denied';
  if (state !== 'granted') return null;
  return listDirectoryHandle(handle);
}
