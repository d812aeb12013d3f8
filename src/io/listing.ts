/**
 * What the page hands to the worker when the user opens something: a label and a flat list of
 * files, each either a File (drop fallback, <input>) or a FileSystemFileHandle (directory picker,
 * dropped handles). Both are structured-cloneable, so the listing crosses postMessage as is and
 * the worker reads the bytes lazily (src/worker/listingSource.ts); nothing is read up front.
 */
export interface ListingFile {
  /** '/'-separated, relative to the chosen folder (or the bare file name for single files). */
  path: string;
  file: File | FileSystemFileHandle;
}

export interface Listing {
  /** The folder name, or the file name(s) when single files were chosen. */
  label: string;
  /** 'folder': one folder (a dataset, or a prediction folder); 'files': loose files, one model each. */
  kind: 'folder' | 'files';
  files: ListingFile[];
}

/**
 * Hidden files and folders (".DS_Store", ".git/…", "._img.jpg") are never part of a dataset;
 * skipping them here keeps them out of detection and of "unknown file" warnings.
 */
export function isHiddenPath(path: string): boolean {
  return path.split('/').some((seg) => seg.startsWith('.') || seg === '__MACOSX' || seg === 'Thumbs.db');
}

export function folderListing(label: string, files: ListingFile[]): Listing {
  return { label, kind: 'folder', files: files.filter((f) => !isHiddenPath(f.path)) };
}

export function filesListing(files: File[] | ListingFile[]): Listing {
  const entries: ListingFile[] = files.map((f) => (f instanceof File ? { path: f.name, file: f } : f));
  const kept = entries.filter((f) => !isHiddenPath(f.path));
  return { label: kept.map((f) => f.path).join(', '), kind: 'files', files: kept };
}
