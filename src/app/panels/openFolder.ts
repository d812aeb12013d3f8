/** Opening a dataset folder from any of the three sources, and remembering it for "recent". */
import { addRecentFolder } from '../../db/recentFolders';
import type { Listing } from '../../io/listing';
import { openListing } from '../store/actions';
import { useBench } from '../store';

export async function openDatasetListing(listing: Listing, handle: FileSystemDirectoryHandle | null = null): Promise<void> {
  await openListing(listing);
  const ds = useBench.getState().dataset;
  if (ds && ds.label === listing.label && useBench.getState().status === 'open') {
    // Recent folders are a convenience: a browser without IndexedDB simply has none.
    await addRecentFolder(handle, listing.label, ds.benchmark).catch(() => undefined);
    window.dispatchEvent(new Event('benchlens:recent-changed'));
  }
}
