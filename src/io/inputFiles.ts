/** Files chosen through <input type=file webkitdirectory> (a folder) or a plain <input multiple>. */
import { filesListing, folderListing, type Listing } from './listing';

/** A folder chosen with webkitdirectory: every File carries "<folder>/<sub>/<name>". */
export function listingFromDirectoryInput(files: FileList | File[]): Listing | null {
  const all = [...files];
  if (all.length === 0) return null;
  const first = all[0].webkitRelativePath || all[0].name;
  const label = first.includes('/') ? first.slice(0, first.indexOf('/')) : 'folder';
  return folderListing(
    label,
    all.map((f) => {
      const rel = f.webkitRelativePath || f.name;
      return { path: rel.startsWith(label + '/') ? rel.slice(label.length + 1) : rel, file: f };
    }),
  );
}

export function listingFromFileInput(files: FileList | File[]): Listing | null {
  const all = [...files];
  return all.length === 0 ? null : filesListing(all);
}
