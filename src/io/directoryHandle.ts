/** Walks a FileSystemDirectoryHandle (picker, dropped handle, origin-private folder) into a Listing. */
import { folderListing, isHiddenPath, type Listing, type ListingFile } from './listing';

export async function listDirectoryHandle(dir: FileSystemDirectoryHandle): Promise<Listing> {
  const files: ListingFile[] = [];
  await walk(dir, '', files);
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return folderListing(dir.name, files);
}

async function walk(dir: FileSystemDirectoryHandle, prefix: string, out: ListingFile[]): Promise<void> {
  const subdirs: Promise<void>[] = [];
  for await (const h of dir.values()) {
    const path = prefix + h.name;
    // Skip hidden entries before descending: a .git folder can hold tens of thousands of files.
    if (isHiddenPath(h.name)) continue;
    if (h.kind === 'file') out.push({ path, file: h as FileSystemFileHandle });
    else subdirs.push(walk(h as FileSystemDirectoryHandle, path + '/', out));
  }
  await Promise.all(subdirs);
}
